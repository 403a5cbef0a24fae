import type { IncomingMessage } from 'node:http';
import type { Visitor } from '../domain/smart/visitor.js';
import { isNamed } from './click-headers.js';

/** Where a smart link's rules learn a visitor's country and address. */
export interface VisitorSources {
  /** HOP_COUNTRY_HEADER: an edge's country header wins over the lookup when set. */
  readonly countryHeader: string | undefined;
  /** The country of an address in the IP database (ADR 0109); null when there is none. */
  readonly countryOfAddress: ((address: string) => string | undefined) | null;
  /** The client's full address, through HOP_TRUST_PROXY's proxies. */
  readonly clientAddressOf: (request: IncomingMessage) => string | undefined;
}

/**
 * A request as a smart link's rules see it (issue 21). Each answer is read only when a
 * rule asks (the matcher asks each at most once): from node's rawHeaders, never its
 * `headers` object, and the country from the lookup only when no edge header gave one.
 */
export class RequestVisitor implements Visitor {
  readonly #request: IncomingMessage;
  readonly #query: string;
  readonly #sources: VisitorSources;
  readonly now: number;

  constructor(request: IncomingMessage, query: string, now: number, sources: VisitorSources) {
    this.#request = request;
    this.#query = query;
    this.now = now;
    this.#sources = sources;
  }

  userAgent(): string | undefined {
    return headerOf(this.#request.rawHeaders, 'user-agent');
  }

  acceptLanguage(): string | undefined {
    return headerOf(this.#request.rawHeaders, 'accept-language');
  }

  country(): string | undefined {
    const { countryHeader, countryOfAddress } = this.#sources;
    if (countryHeader !== undefined) {
      const fromEdge = headerOf(this.#request.rawHeaders, countryHeader);
      if (fromEdge !== undefined) return fromEdge;
    }
    if (countryOfAddress === null) return undefined;
    const address = this.address();
    return address === undefined ? undefined : countryOfAddress(address);
  }

  query(): string {
    return this.#query;
  }

  address(): string | undefined {
    return this.#sources.clientAddressOf(this.#request);
  }
}

/** The first value of a header, by its lower-case name, from rawHeaders. */
function headerOf(raw: readonly string[], lowerCaseName: string): string | undefined {
  for (let index = 0; index + 1 < raw.length; index += 2) {
    if (isNamed(raw[index] ?? '', lowerCaseName)) return raw[index + 1];
  }
  return undefined;
}
