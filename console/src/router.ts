import { useEffect, useState } from 'preact/hooks';

/** Hash routes: the server answers one page at /admin, the rest is the fragment. */
export type Route =
  | { readonly page: 'dashboard' }
  | { readonly page: 'links'; readonly params: URLSearchParams }
  | { readonly page: 'link'; readonly id: string }
  | { readonly page: 'new' }
  | { readonly page: 'domains' }
  | { readonly page: 'keys' }
  | { readonly page: 'tags'; readonly params: URLSearchParams }
  | { readonly page: 'missing' };

export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter((part) => part !== '');
  if (parts[0] === 'links' && parts[1] !== undefined) {
    try {
      return { page: 'link', id: decodeURIComponent(parts[1]) };
    } catch {
      // A hand-edited fragment with broken percent-encoding names no link.
      return { page: 'missing' };
    }
  }
  if (parts[0] === 'links') return { page: 'links', params: new URLSearchParams(query) };
  if (parts[0] === 'new') return { page: 'new' };
  if (parts[0] === 'domains') return { page: 'domains' };
  if (parts[0] === 'keys') return { page: 'keys' };
  if (parts[0] === 'tags') return { page: 'tags', params: new URLSearchParams(query) };
  return { page: 'dashboard' };
}

export function useRoute(): Route {
  const [firstHash] = useState(() => location.hash);
  const [route, setRoute] = useState(() => parseRoute(firstHash));
  useEffect(() => {
    const changed = () => {
      setRoute(parseRoute(location.hash));
    };
    addEventListener('hashchange', changed);
    // The fragment may have changed between the first render and this effect, when a
    // hashchange had no listener yet: catch up once.
    if (location.hash !== firstHash) changed();
    return () => {
      removeEventListener('hashchange', changed);
    };
  }, [firstHash]);
  return route;
}

export function go(hash: string): void {
  location.hash = hash;
}
