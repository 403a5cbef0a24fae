import { Alert } from './components/alert.js';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, useSession, type Scope, type Session } from './api.js';
import { CreateLink } from './pages/create-link.js';
import { DashboardPage } from './pages/dashboard-page.js';
import { DomainsPage } from './pages/domains-page.js';
import { KeysPage } from './pages/keys-page.js';
import { TagsPage } from './pages/tags-page.js';
import { LinkPage } from './pages/link-page.js';
import { LinksPage } from './pages/links-page.js';
import { SignIn } from './pages/sign-in.js';
import { useRoute, type Route } from './router.js';

/** Signed out, the sign-in form; signed in, the console with its navigation. */
export function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const signedOut = useCallback(() => {
    setSession(null);
  }, []);
  useSession(session ?? null, signedOut);

  useEffect(() => {
    api.session().then(setSession, () => {
      setSession(null);
    });
  }, []);

  if (session === undefined) return <p class="loading">Loading…</p>;
  if (session === null) return <SignIn onSignedIn={setSession} />;
  return <Console session={session} onSignedOut={signedOut} />;
}

function Console({ session, onSignedOut }: { session: Session; onSignedOut: () => void }) {
  const route = useRoute();
  const admin = session.admin;
  // A new page is announced: focus moves to its content, as after a page load.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById('main')?.focus();
  }, [route]);
  const [error, setError] = useState('');
  const signOut = () => {
    api.signOut().then(onSignedOut, (e: unknown) => {
      setError(e instanceof ApiError ? e.message : 'Signing out failed.');
    });
  };
  return (
    <>
      <a
        class="skip"
        href="#main"
        onClick={(event) => {
          // The fragment is the router's: move focus without changing it.
          event.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="#/">
          hop
        </a>
        <nav aria-label="Console">
          {hasDashboard(session) && (
            <NavLink href="#/" current={route.page === 'dashboard'}>
              Dashboard
            </NavLink>
          )}
          <NavLink
            href="#/links"
            current={
              route.page === 'links' ||
              route.page === 'link' ||
              (!hasDashboard(session) && route.page === 'dashboard')
            }
          >
            Links
          </NavLink>
          <NavLink href="#/new" current={route.page === 'new'}>
            New link
          </NavLink>
          <NavLink href="#/tags" current={route.page === 'tags'}>
            Tags
          </NavLink>
          <NavLink href="#/domains" current={route.page === 'domains'}>
            Domains
          </NavLink>
          {can(session, 'keys:write') && (
            <NavLink href="#/keys" current={route.page === 'keys'}>
              Keys
            </NavLink>
          )}
        </nav>
        <span class="who" title={`key ${session.key_id}`} data-testid="signed-in-as">
          Signed in as <strong>{session.owner}</strong> ({admin ? 'admin' : 'owner'})
        </span>
        <button type="button" class="secondary" onClick={signOut}>
          Sign out
        </button>
      </header>
      <Alert message={error} />
      <main id="main" tabIndex={-1}>
        <Page route={route} session={session} />
      </main>
    </>
  );
}

/**
 * The dashboard's service figures are the whole service's, so only an admin has them (ADR
 * 0096); its clicks across links are the key's own, so any key that reads analytics has a
 * dashboard (ADR 0126). A key that cannot opens on its links.
 */
function Page({ route, session }: { route: Route; session: Session }) {
  const admin = session.admin;
  switch (route.page) {
    case 'dashboard':
      return hasDashboard(session) ? (
        <DashboardPage admin={admin} />
      ) : (
        <LinksPage params={new URLSearchParams()} admin={false} />
      );
    case 'links':
      return <LinksPage params={route.params} admin={admin} />;
    case 'link':
      return <LinkPage key={route.id} id={route.id} />;
    case 'new':
      return <CreateLink />;
    case 'tags':
      return <TagsPage params={route.params} canWrite={can(session, 'links:write')} />;
    case 'domains':
      return <DomainsPage canWrite={can(session, 'domains:write')} />;
    case 'keys':
      return <KeysPage sessionKeyId={session.key_id} />;
    case 'missing':
      return <p role="alert">There is no such page. Go back to the links.</p>;
  }
}

/** A dashboard: an admin's, or any key's that reads analytics (its own clicks, ADR 0126). */
function hasDashboard(session: Session): boolean {
  return can(session, 'analytics:read');
}

/** What the session's key may do (issue 22); an admin holds every scope. */
function can(session: Session, scope: Scope): boolean {
  return session.admin || session.scopes.includes(scope);
}

function NavLink(props: { href: string; current: boolean; children: string }) {
  return (
    <a href={props.href} aria-current={props.current ? 'page' : undefined}>
      {props.children}
    </a>
  );
}
