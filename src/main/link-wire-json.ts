/**
 * The API's JSON for a link (SPEC §3: snake_case, RFC 3339 times), for the CLI's --json:
 * one wire format for hop's links wherever they are written (issue 20). Re-exported here
 * because the CLI may not import src/http (eslint.config.js), and copying it would let
 * the two drift.
 */
export { toLinkJson, type LinkJson } from '../http/link-json.js';
