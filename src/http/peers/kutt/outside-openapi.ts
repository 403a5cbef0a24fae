/**
 * A Kutt route's schema: kept out of hop's OpenAPI document, which describes hop's own API
 * (its bearer keys and problem bodies); Kutt's is Kutt's to document. A new object each
 * time, as route-scope.ts writes the route's scope into it.
 */
export function outsideOpenApi(): { hide: true } {
  return { hide: true };
}
