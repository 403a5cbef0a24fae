/** SPEC §2: base62 by default; base64url (seed 000) as an option. */
export const ALPHABETS = {
  base62: '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
  base64url: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
} as const;

export type AlphabetName = keyof typeof ALPHABETS;
