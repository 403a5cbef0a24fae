/** Produces candidate codes; uniqueness is decided by the store's conditional insert. */
export interface CodeGenerator {
  /** A fresh candidate code, never derived from anything guessable. */
  generate(): Promise<string>;
}
