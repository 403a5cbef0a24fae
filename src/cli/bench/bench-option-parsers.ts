import { InvalidArgumentError } from 'commander';
import { parseBaseUrl, parseDuration, ParseError } from '../../config/parsers.js';
import { SCENARIOS, type ScenarioName } from './scenarios.js';

/** Commander argument parsers of `hop bench`: a bad value is one line naming what fits. */

export function parseUrlOption(value: string): string {
  try {
    return parseBaseUrl(value);
  } catch (error) {
    if (error instanceof ParseError) throw new InvalidArgumentError(`It must be ${error.message}.`);
    throw error;
  }
}

/** A duration from `min` to `max` ms, written `500ms`, `10s`, `2m` or as bare seconds. */
export function durationParser(minMs: number, maxMs: number): (value: string) => number {
  const range = `from ${minMs === 0 ? '0' : describeMs(minMs)} to ${describeMs(maxMs)}`;
  return (value) => {
    const text = value.trim();
    let ms = Number.NaN;
    if (/^\d+$/.test(text)) ms = Number(text) * 1000;
    else {
      try {
        ms = parseDuration(text);
      } catch {
        // not a duration: refused below, with the accepted forms
      }
    }
    if (!(ms >= minMs && ms <= maxMs)) {
      throw new InvalidArgumentError(
        `It must be a duration such as 2s, 30s or 1m (bare numbers are seconds), ${range}.`,
      );
    }
    return ms;
  };
}

/** `hot,uniform,404`, in the order given, each once. */
export function parseScenarios(value: string): ScenarioName[] {
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(SCENARIOS as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new InvalidArgumentError(
      `It must be a comma-separated list of ${SCENARIOS.join(', ')}; ` +
        `${JSON.stringify(unknown.join(','))} is not one.`,
    );
  }
  return [...new Set(names as ScenarioName[])];
}

function describeMs(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  return ms % 60_000 === 0 ? `${ms / 60_000}m` : `${ms / 1000}s`;
}
