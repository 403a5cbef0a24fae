/**
 * Databases or schemas for tests on a shared server, used again within a test process. A
 * new one costs its migrations' DDL (on MariaDB a file and its fsyncs per table) and a drop;
 * under `npm test`'s load that I/O slowed every test on the machine. One given back is
 * emptied (already migrated) and handed to the next test; one that cannot be emptied is
 * dropped. The process drops every one it took when it ends: a test that never closed its
 * server never gives its one back.
 */
export interface ReusedNamespaces {
  /** A name no other test is using: an emptied one, or a new one (created when opened). */
  take(): string;
  /** Empties `name` and keeps it for the next test, or drops it if it cannot be emptied. */
  giveBack(name: string): Promise<void>;
}

export function reusedNamespaces(server: {
  /** A name no other run uses. */
  readonly unique: () => string;
  /** Empties it, migrations kept; throws when it cannot (never migrated, locked). */
  readonly empty: (name: string) => Promise<void>;
  readonly drop: (name: string) => Promise<void>;
}): ReusedNamespaces {
  const spare: string[] = [];
  const taken = new Set<string>();
  let dropOnExit = false;
  return {
    take() {
      if (!dropOnExit) {
        dropOnExit = true;
        // beforeExit runs again after these drops finish, with nothing left to drop.
        process.on('beforeExit', () => {
          const names = [...taken];
          taken.clear();
          spare.length = 0;
          if (names.length > 0) void Promise.all(names.map((name) => server.drop(name)));
        });
      }
      const name = spare.pop() ?? server.unique();
      taken.add(name);
      return name;
    },
    async giveBack(name) {
      try {
        await server.empty(name);
        spare.push(name);
      } catch {
        taken.delete(name);
        await server.drop(name);
      }
    },
  };
}

/** A database or schema name no other run uses. */
export function uniqueTestName(): string {
  return `hop_test_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}
