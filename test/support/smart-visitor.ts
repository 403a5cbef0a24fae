import type { Visitor } from '../../src/domain/smart/visitor.js';

export interface VisitorFields {
  readonly userAgent?: string;
  readonly acceptLanguage?: string;
  readonly country?: string;
  readonly query?: string;
  readonly address?: string;
  readonly now?: number;
}

/** A visitor that counts how often each of its answers was asked for (laziness checks). */
export interface CountingVisitor extends Visitor {
  readonly reads: Record<'userAgent' | 'acceptLanguage' | 'country' | 'query' | 'address', number>;
}

export function makeVisitor(fields: VisitorFields = {}): CountingVisitor {
  const reads = { userAgent: 0, acceptLanguage: 0, country: 0, query: 0, address: 0 };
  return {
    reads,
    now: fields.now ?? Date.parse('2026-12-05T12:00:00Z'),
    userAgent: () => (reads.userAgent++, fields.userAgent),
    acceptLanguage: () => (reads.acceptLanguage++, fields.acceptLanguage),
    country: () => (reads.country++, fields.country),
    query: () => (reads.query++, fields.query ?? ''),
    address: () => (reads.address++, fields.address),
  };
}
