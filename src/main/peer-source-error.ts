/**
 * What `hop import` needs of the peers' sources before it loads them (issue 24): their
 * readers bring mysql2 and pg, so they are imported only when an import runs
 * (src/main/peer-sources.ts), and this stays light for every other command.
 */
export { PeerSourceError, type PeerRows } from '../adapters/peer-sources/peer-rows.js';
