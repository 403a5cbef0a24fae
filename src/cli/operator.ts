import { principalFor, type Principal } from '../domain/principal.js';

/** The operator at the console acts as an admin, for the owner they name. */
export function operator(owner: string): Principal {
  return principalFor({ id: 'cli', owner, admin: true });
}
