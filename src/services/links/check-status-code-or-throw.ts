import { HopError } from '../../domain/errors.js';
import { isRedirectStatus, REDIRECT_STATUSES, type RedirectStatus } from '../../domain/link.js';

export function checkStatusCodeOrThrow(value: number): RedirectStatus {
  if (isRedirectStatus(value)) return value;
  const detail = `status_code must be one of ${REDIRECT_STATUSES.join(', ')}.`;
  throw new HopError('invalid-status-code', detail, {
    fields: [{ field: 'status_code', detail }],
  });
}
