/**
 * What a smart link's rules may ask of one request (issue 21, ADR 0108). Every read is a
 * method so that the HTTP layer can answer it lazily from node's `rawHeaders` (a scan for
 * one name, no `headers` object): a rule set that never looks at the user agent never
 * finds it. The matcher asks each question at most once per request.
 */
export interface Visitor {
  /** The `User-Agent` header, or undefined when absent. */
  userAgent(): string | undefined;
  /** The `Accept-Language` header, or undefined when absent. */
  acceptLanguage(): string | undefined;
  /** The country an edge or geo lookup placed the visitor in (any case), or undefined. */
  country(): string | undefined;
  /** The raw query string of the request, without the `?`; '' when there is none. */
  query(): string;
  /** The client's address as the trusted-proxy logic found it (IPv4, IPv6 or IPv4-mapped). */
  address(): string | undefined;
  /** The instant of the request, epoch ms (the redirect's clock, read once). */
  readonly now: number;
}
