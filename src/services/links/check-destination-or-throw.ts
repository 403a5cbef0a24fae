import {
  checkDestination,
  type DestinationPolicyOptions,
} from '../../domain/destination-policy.js';
import { HopError } from '../../domain/errors.js';

/** The normalised destination, or `invalid-destination` with the policy's reason. */
export function checkDestinationOrThrow(input: string, policy: DestinationPolicyOptions): string {
  const verdict = checkDestination(input, policy);
  if (verdict.ok) return verdict.destination;
  throw new HopError('invalid-destination', verdict.reason, {
    fields: [{ field: 'destination', detail: verdict.reason }],
  });
}
