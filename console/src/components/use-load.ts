import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api.js';

/**
 * Loads when `deps` change (showing nothing of the old inputs' answer) and again on
 * `reload` (keeping the last answer on screen while it runs).
 */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]) {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState('');
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => {
    setGeneration((n) => n + 1);
  }, []);
  // New inputs: what was shown belongs to the old ones (a reload keeps it while it runs).
  const key = JSON.stringify(deps);
  const [shownKey, setShownKey] = useState(key);
  if (shownKey !== key) {
    setShownKey(key);
    setValue(null);
  }
  useEffect(() => {
    let current = true;
    load().then(
      (loaded) => {
        if (!current) return;
        setValue(loaded);
        setError('');
      },
      (e: unknown) => {
        if (current) setError(e instanceof ApiError ? e.message : 'Loading failed.');
      },
    );
    return () => {
      current = false;
    };
    // The caller names what the load depends on, as with useEffect.
  }, [...deps, generation]);
  return { value, error, reload, setValue };
}
