/** Who is calling: derived from the API key, never from the request body (SPEC §3). */
export interface Principal {
  readonly keyId: string;
  readonly owner: string;
  readonly admin: boolean;
}

/** An owner name: what keys are issued to and links belong to. */
export const OWNER_PATTERN = /^[A-Za-z0-9_.@:-]{1,128}$/;

export function canSeeLinkOf(principal: Principal, owner: string): boolean {
  return principal.admin || principal.owner === owner;
}
