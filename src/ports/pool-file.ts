/** The codes of a pool (SPEC §2 `pool`), as the generator reads them. */
export interface PoolFile {
  /** Characters in every code of the pool. */
  readonly width: number;
  /** The pool's id: its shared offset is kept under it. */
  readonly id: string;
  /** Codes the pool holds now (it grows when reclaimed codes are appended). */
  codeCount(): Promise<number>;
  /** Codes `[first, first + count)`, in order. */
  read(first: number, count: number): Promise<string[]>;
  close(): Promise<void>;
}
