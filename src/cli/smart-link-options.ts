import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { UTM_KEYS, type UtmKey } from '../domain/smart/utm.js';
import type { SmartFields } from '../services/links/smart-link-fields.js';

/**
 * `hop links create`'s smart-link options (issue 21), turned into the API's fields: what
 * they hold is checked by the API's parser (`checkSmartFields`), so the CLI refuses a bad
 * rule with the API's words and field path. Only reading a file and its JSON is done here.
 *
 * The password never comes from argv, which any user of the host can read in `ps` or
 * /proc/<pid>/cmdline (ADR 0113): it is read from a file, or from stdin with `-`.
 */
export interface SmartLinkOptions {
  readonly rules?: string;
  readonly variants?: string;
  readonly passwordFile?: string;
  readonly maxClicks?: string;
  readonly fallbackUrl?: string;
  readonly forwardQuery?: boolean;
  readonly utmSource?: string;
  readonly utmMedium?: string;
  readonly utmCampaign?: string;
  readonly utmTerm?: string;
  readonly utmContent?: string;
}

/** A file or stdin that could not be read, or JSON that is not JSON: a usage error. */
export class SmartOptionError extends Error {}

const STDIN = '-';

/** Adds the options to `command`; their help says what each takes. */
export function addSmartLinkOptions(command: Command): Command {
  return command
    .option('--rules <file>', 'rules as a JSON array, as the API takes them (- for stdin)')
    .option(
      '--variants <file-or-json>',
      'variants as a JSON array, inline or in a file (- for stdin)',
    )
    .option('--password-file <file>', "the link's password: the file's first line (- for stdin)")
    .option('--max-clicks <n>', 'at most this many redirects, then the fallback or 404')
    .option('--fallback-url <url>', 'where an expired or used-up link sends visitors')
    .option('--forward-query', "add the visitor's query string to the destination")
    .option('--utm-source <value>', 'set utm_source on the destination')
    .option('--utm-medium <value>', 'set utm_medium on the destination')
    .option('--utm-campaign <value>', 'set utm_campaign on the destination')
    .option('--utm-term <value>', 'set utm_term on the destination')
    .option('--utm-content <value>', 'set utm_content on the destination');
}

/** The options as the API's smart fields; undefined when none was given. */
export function smartFieldsOfOptions(options: SmartLinkOptions): SmartFields | undefined {
  const fromStdin = [options.rules, options.variants, options.passwordFile].filter(
    (source) => source === STDIN,
  );
  if (fromStdin.length > 1) {
    throw new SmartOptionError(
      'only one of --rules, --variants and --password-file may read stdin',
    );
  }
  const fields: Partial<Record<keyof SmartFields, unknown>> = {};
  if (options.rules !== undefined) {
    fields.rules = parseJson('--rules', readSource('--rules', options.rules));
  }
  if (options.variants !== undefined) {
    const inline = options.variants.trimStart().startsWith('[');
    const text = inline ? options.variants : readSource('--variants', options.variants);
    fields.variants = parseJson('--variants', text);
  }
  if (options.passwordFile !== undefined) {
    fields.password = firstLine(readSource('--password-file', options.passwordFile));
  }
  if (options.maxClicks !== undefined) {
    // Not a whole number goes on as text, for the API's parser to refuse in its words.
    fields.max_clicks = /^\d+$/.test(options.maxClicks)
      ? Number(options.maxClicks)
      : options.maxClicks;
  }
  if (options.fallbackUrl !== undefined) fields.fallback_url = options.fallbackUrl;
  if (options.forwardQuery === true) fields.forward_query = true;
  const utm = utmOf(options);
  if (utm !== undefined) fields.utm = utm;
  return Object.keys(fields).length === 0 ? undefined : fields;
}

const UTM_OPTIONS: Readonly<Record<UtmKey, keyof SmartLinkOptions>> = {
  source: 'utmSource',
  medium: 'utmMedium',
  campaign: 'utmCampaign',
  term: 'utmTerm',
  content: 'utmContent',
};

function utmOf(options: SmartLinkOptions): Partial<Record<UtmKey, unknown>> | undefined {
  const utm: Partial<Record<UtmKey, unknown>> = {};
  for (const key of UTM_KEYS) {
    const value = options[UTM_OPTIONS[key]];
    if (value !== undefined) utm[key] = value;
  }
  return Object.keys(utm).length === 0 ? undefined : utm;
}

function readSource(option: string, source: string): string {
  try {
    return readFileSync(source === STDIN ? 0 : source, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SmartOptionError(`cannot read ${option} ${source}: ${reason}`);
  }
}

function parseJson(option: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SmartOptionError(`${option} is not JSON: ${reason}`);
  }
}

/** A password file's first line, without its line ending (`echo secret >file` writes one). */
function firstLine(text: string): string {
  const end = text.search(/\r?\n/);
  return end === -1 ? text : text.slice(0, end);
}
