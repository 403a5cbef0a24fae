import { FieldProblems, isJsonObject, keyPath, refuseUnknownKeys } from './field-problems.js';
import { UTM_KEYS, type UtmChanges, type UtmKey } from './utm.js';

export const MAX_UTM_VALUE_LENGTH = 200;

const CONTROL_CHARACTERS = /[\p{Cc}\p{Cf}]/u;

/**
 * The `utm` field of a create or update (issue 21): any of the five names, each a short
 * printable string, or null to remove that parameter; `utm: null` removes all five.
 */
export function parseUtmInput(value: unknown, problems: FieldProblems): UtmChanges {
  if (value === null) return Object.fromEntries(UTM_KEYS.map((key) => [key, null]));
  if (!isJsonObject(value)) {
    problems.add('utm', `An object with any of ${UTM_KEYS.join(', ')}.`);
    return {};
  }
  refuseUnknownKeys(value, UTM_KEYS, 'utm', problems);
  const changes: Partial<Record<UtmKey, string | null>> = {};
  for (const key of UTM_KEYS) {
    const item = value[key];
    if (item === undefined) continue;
    if (item === null) {
      changes[key] = null;
    } else if (
      typeof item === 'string' &&
      item.length >= 1 &&
      item.length <= MAX_UTM_VALUE_LENGTH &&
      !CONTROL_CHARACTERS.test(item)
    ) {
      changes[key] = item;
    } else {
      problems.add(
        keyPath('utm', key),
        `A string of 1 to ${MAX_UTM_VALUE_LENGTH} characters without control characters (null removes it).`,
      );
    }
  }
  return changes;
}
