import type { IncomingMessage } from 'node:http';
import type { Visitor } from '../domain/smart/visitor.js';
import type { ClickHeaders } from './click-headers.js';

/** Where a smart link's rules learn a visitor's country and address. */
export interface VisitorSources {
  /** The country of an address in the IP database (ADR 0109); null when there is none. */
  readonly countryOfAddress: ((address: string) => string | undefined) | null;
  /** The client's full address, through HOP_TRUST_PROXY's proxies. */
  readonly clientAddressOf: (request: IncomingMessage) => string | undefined;
}

/**
 * A request as a smart link's rules see it (issue 21). The agent, the languages and an
 * edge's country come from the click's one read of the headers (`readClickHeaders`, made
 * anyway to count the visit), copied here because that object is shared and overwritten by
 * the next request; the address, and the country from the lookup when no edge header gave
 * one, are found only when a rule asks (the matcher asks each at most once).
 */
export class RequestVisitor implements Visitor {
  readonly #request: IncomingMessage;
  readonly #userAgent: string | undefined;
  readonly #acceptLanguage: string | undefined;
  readonly #edgeCountry: string | undefined;
  readonly #query: string;
  readonly #sources: VisitorSources;
  readonly now: number;

  constructor(
    request: IncomingMessage,
    headers: Readonly<ClickHeaders>,
    query: string,
    now: number,
    sources: VisitorSources,
  ) {
    this.#request = request;
    this.#userAgent = headers.userAgent;
    this.#acceptLanguage = headers.acceptLanguage;
    // readClickHeaders reads a country only from HOP_COUNTRY_HEADER, and only when it is set.
    this.#edgeCountry = headers.country;
    this.#query = query;
    this.now = now;
    this.#sources = sources;
  }

  userAgent(): string | undefined {
    return this.#userAgent;
  }

  acceptLanguage(): string | undefined {
    return this.#acceptLanguage;
  }

  country(): string | undefined {
    if (this.#edgeCountry !== undefined) return this.#edgeCountry;
    const { countryOfAddress } = this.#sources;
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
