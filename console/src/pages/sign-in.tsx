import { Alert } from '../components/alert.js';
import { useState } from 'preact/hooks';
import { api, ApiError, type Session } from '../api.js';

export function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    api.signIn(key.trim()).then(
      (session) => {
        setKey('');
        onSignedIn(session);
      },
      (e: unknown) => {
        setBusy(false);
        setError(e instanceof ApiError ? e.message : 'Signing in failed.');
      },
    );
  };
  return (
    <main id="main" class="sign-in">
      <h1>hop console</h1>
      <form onSubmit={submit} noValidate>
        <label for="key">API key</label>
        <input
          id="key"
          name="key"
          type="password"
          autocomplete="current-password"
          required
          value={key}
          onInput={(e) => {
            setKey(e.currentTarget.value);
          }}
        />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <Alert message={error} />
      </form>
      <p class="hint">
        An admin key sees every link; an owner's key, that owner's links. The first start of hop
        prints an admin key; <code>hop keys create --owner you</code> makes an owner's key.
      </p>
    </main>
  );
}
