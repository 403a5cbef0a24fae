/**
 * TEMPORARY scaffolding while the MariaDB adapter is written (issue 25): a port whose every
 * method rejects. Removed once each repository is built.
 */
export function notBuilt<T extends object>(port: string): T {
  return new Proxy({} as T, {
    get: (_target, property) => {
      if (property === 'then') return undefined;
      return () => {
        throw new Error(`MariaDB ${port}.${String(property)} is not built yet`);
      };
    },
  });
}
