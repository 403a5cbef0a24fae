import { InvalidArgumentError } from 'commander';

/**
 * A commander argument parser for a whole number from `min` to `max`: digits only, so
 * "1e3", "2.0" and " 5" are refused with the range instead of read as something else.
 */
export function wholeNumberParser(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!(n >= min && n <= max)) {
      throw new InvalidArgumentError(`It must be a whole number from ${min} to ${max}.`);
    }
    return n;
  };
}
