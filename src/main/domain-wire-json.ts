/**
 * The API's JSON for a domain, for `hop domains list --json`: re-exported because the CLI
 * may not import src/http (eslint.config.js), as src/main/link-wire-json.ts does for links.
 */
export { toDomainJson, type DomainJson } from '../http/domain-json.js';
