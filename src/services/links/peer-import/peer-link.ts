/**
 * The peer row shapes live in the domain so that the peer-source adapters, which may not
 * import services, yield them too (docs/ARCHITECTURE.md); re-exported here for the import.
 */
export * from '../../../domain/peer-link.js';
