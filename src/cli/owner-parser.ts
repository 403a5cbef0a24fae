import { InvalidArgumentError } from 'commander';
import { OWNER_PATTERN } from '../domain/principal.js';

/**
 * A commander argument parser for an owner: the API keys' rule, so that the CLI makes no
 * link whose owner no key can ever have.
 */
export function parseOwner(value: string): string {
  if (!OWNER_PATTERN.test(value)) {
    throw new InvalidArgumentError(
      'An owner has 1 to 128 letters, digits or the characters "_.@:-".',
    );
  }
  return value;
}
