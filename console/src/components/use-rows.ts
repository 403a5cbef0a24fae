import { useRef, useState } from 'preact/hooks';

/** One row of a list editor: a key that stays with it when rows move, and what it began as. */
export interface Row<T> {
  readonly key: string;
  readonly initial: T | undefined;
}

/**
 * The rows of a list editor (rules, variants: issue 21). Inputs stay uncontrolled; a row's
 * key names its fields and keeps its inputs with it when rows are moved or removed.
 */
export function useRows<T>(initial: readonly T[]) {
  const next = useRef(initial.length);
  const [rows, setRows] = useState<readonly Row<T>[]>(() =>
    initial.map((value, i) => ({ key: String(i), initial: value })),
  );
  return {
    rows,
    add: () => {
      const key = String(next.current++);
      setRows((current) => [...current, { key, initial: undefined }]);
    },
    remove: (key: string) => {
      setRows((current) => current.filter((row) => row.key !== key));
    },
    /** Moves a row one place up (-1) or down (+1). */
    move: (key: string, by: -1 | 1) => {
      setRows((current) => {
        const from = current.findIndex((row) => row.key === key);
        const to = from + by;
        if (from === -1 || to < 0 || to >= current.length) return current;
        const moved = [...current];
        [moved[from], moved[to]] = [moved[to] as Row<T>, moved[from] as Row<T>];
        return moved;
      });
    },
  };
}
