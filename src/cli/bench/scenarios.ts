import { makeZipf } from './zipf.js';

export const SCENARIOS = ['hot', 'uniform', '404'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

/** What one scenario asks for, one path per call, and which answers count as success. */
export interface Scenario {
  readonly name: ScenarioName;
  /** One line for the report: what the paths are. */
  readonly about: string;
  readonly nextPath: () => string;
  readonly isExpected: (status: number) => boolean;
}

/** hot's set: this share of the codes, and at least HOT_MIN_CODES of them. */
const HOT_SHARE = 0.01;
const HOT_MIN_CODES = 10;
/** The skew within the hot set, the same as `npm run bench` hot's. */
const HOT_ZIPF_EXPONENT = 1.1;
/** 404's codes: well-formed for any hop (hop's default length and alphabet, SPEC §2). */
const NOT_FOUND_CODE_LENGTH = 7;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const isRedirect = (status: number) => status >= 300 && status <= 399;

export function makeScenario(name: ScenarioName, codes: readonly string[]): Scenario {
  const shuffled = shuffle(codes);
  switch (name) {
    case 'hot': {
      const hot = shuffled.slice(0, Math.max(HOT_MIN_CODES, Math.ceil(codes.length * HOT_SHARE)));
      const pick = makeZipf(hot.length, HOT_ZIPF_EXPONENT);
      return {
        name,
        about: `Zipf(${HOT_ZIPF_EXPONENT}) over ${hot.length} of the codes`,
        nextPath: () => `/${hot[pick()] as string}`,
        isExpected: isRedirect,
      };
    }
    case 'uniform': {
      let next = 0;
      return {
        name,
        about: `every one of the ${codes.length} codes in turn`,
        nextPath: () => `/${shuffled[next++ % shuffled.length] as string}`,
        isExpected: isRedirect,
      };
    }
    case '404': {
      const known = new Set(codes);
      return {
        name,
        about: `a new random ${NOT_FOUND_CODE_LENGTH}-character base62 code each time`,
        nextPath: () => `/${unknownCode(known)}`,
        isExpected: (status) => status === 404,
      };
    }
  }
}

/** A random well-formed code that is not one of `known` (Math.random: load, not secrets). */
function unknownCode(known: ReadonlySet<string>): string {
  for (;;) {
    let code = '';
    for (let i = 0; i < NOT_FOUND_CODE_LENGTH; i++) {
      code += BASE62[Math.floor(Math.random() * BASE62.length)] as string;
    }
    if (!known.has(code)) return code;
  }
}

/** A shuffled copy (Fisher-Yates): no scenario depends on the order codes came in. */
function shuffle(codes: readonly string[]): string[] {
  const copy = [...codes];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as string, copy[i] as string];
  }
  return copy;
}
