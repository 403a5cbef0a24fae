/**
 * The peers' sources for `hop import` (issue 24): the CLI reaches adapters only through
 * main (docs/ARCHITECTURE.md).
 */
export { readShlinkCsv } from '../adapters/peer-sources/shlink-csv.js';
export { readYourlsDatabase } from '../adapters/peer-sources/yourls-database.js';
export { readKuttDatabase } from '../adapters/peer-sources/kutt-database.js';
export { PeerSourceError, type PeerRows } from '../adapters/peer-sources/peer-rows.js';
