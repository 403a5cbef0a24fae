/**
 * The visit log suite again on PostgreSQL (issue 23, ADR 0125): each server gets a schema
 * of its own; without NATS a flush folds straight into the store, visits and click events
 * in its transaction. Retention there drops whole day partitions.
 */
import { postgresReachable, whenPostgres } from '../support/require-postgres.js';

if (await postgresReachable()) {
  process.env['HOP_TEST_STORE'] = 'postgres';
  await import('./visits.test.js');
} else {
  // Registers the failure (CI) or the skip with its reason.
  await whenPostgres('the visit log on PostgreSQL (needs PostgreSQL)', () => undefined);
}
