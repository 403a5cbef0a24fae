import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt's cost (ADR 0110): N = 2^13, r = 8, p = 1 uses 8 MiB and took 16–40 ms (median
 * about 26 ms) per verify on the 2-core VM, against 33–110 ms for 2^14. The parameters
 * are kept in every hash, so raising them later leaves older hashes readable.
 */
const COST = { N: 8192, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** Refuses encoded strings that would make one verify use more than 64 MiB. */
const MAX_MEMORY = 64 * 1024 * 1024;
const PREFIX = 'scrypt';

/** `scrypt$N$r$p$<salt b64url>$<hash b64url>`: every parameter a verify needs. */
const ENCODED =
  /^scrypt\$(\d{1,7})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{16,128})$/;

function derive(password: string, salt: Buffer, length: number, options: ScryptOptions) {
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(
      password.normalize('NFC'),
      salt,
      length,
      { ...options, maxmem: MAX_MEMORY },
      (error, key) => {
        if (error === null) resolve(key);
        else reject(error);
      },
    );
  });
}

/**
 * A link password's stored form (issue 21: the password is write-only; only this is kept).
 * Passwords are NFC-normalised first, so the same characters typed on two systems match.
 */
export async function hashLinkPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, HASH_BYTES, COST);
  return [
    PREFIX,
    COST.N,
    COST.r,
    COST.p,
    salt.toString('base64url'),
    hash.toString('base64url'),
  ].join('$');
}

/**
 * Whether `encoded` is a hash `verifyLinkPassword` can read: the shape `hashLinkPassword`
 * writes, N a power of two, and a verify within the memory cap. A CSV import keeps a
 * link's password by its hash (issue 21: a round trip keeps the password); anything else
 * in that cell is refused, never stored as a hash no password could match.
 */
export function isEncodedLinkPassword(encoded: string): boolean {
  // An imported Kutt link's hash (issue 24) goes out in an export and comes back in alike.
  if (isKeptBcryptHash(encoded)) return true;
  const parts = ENCODED.exec(encoded);
  if (parts === null) return false;
  const [, n = '', r = '', p = ''] = parts;
  const [cost, blockSize, parallel] = [Number(n), Number(r), Number(p)];
  const powerOfTwo = cost > 1 && (cost & (cost - 1)) === 0;
  // scrypt's memory: 128 · N · r bytes (and a little more), as `maxmem` counts it.
  return powerOfTwo && blockSize >= 1 && parallel >= 1 && 128 * cost * blockSize < MAX_MEMORY;
}

/**
 * A bcrypt hash as Kutt keeps a link's password (issue 24): `$2a$`, `$2b$` or `$2y$`, two
 * digits of cost, 53 characters of bcrypt's base64 (salt and hash).
 */
const BCRYPT = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;
/**
 * The costliest bcrypt hash kept (ADR 0136): Kutt hashes at 12, which bcryptjs verifies in
 * about 340 ms of the event loop's time on the 2-core VM (in slices, so redirects go on);
 * each more doubles it.
 */
export const MAX_BCRYPT_COST = 12;

/**
 * Whether `encoded` is a bcrypt hash hop keeps and verifies as it is (issue 24: an imported
 * Kutt link asks for the same password). Never re-hashed: the password is not known.
 */
export function isKeptBcryptHash(encoded: string): boolean {
  const parts = BCRYPT.exec(encoded);
  if (parts === null) return false;
  const cost = Number(parts[1]);
  return cost >= 4 && cost <= MAX_BCRYPT_COST;
}

/**
 * Whether `password` is the one `encoded` was made from, compared in constant time. An
 * encoded string that cannot be read (or asks for too much memory or time) is false, never
 * a throw. `encoded` is hop's scrypt form, or a kept bcrypt hash (issue 24).
 */
export async function verifyLinkPassword(password: string, encoded: string): Promise<boolean> {
  // A bcrypt hash is checked on the password as typed: Kutt hashed it without normalising.
  if (encoded.charCodeAt(0) === 36 /* $ */) {
    if (!isKeptBcryptHash(encoded)) return false;
    // Loaded on the first kept hash met: links made on hop never need it.
    const bcrypt = (await import('bcryptjs')).default;
    return bcrypt.compare(password, encoded).catch(() => false);
  }
  const parts = ENCODED.exec(encoded);
  if (parts === null) return false;
  const [, n = '', r = '', p = '', salt = '', hash = ''] = parts;
  const expected = Buffer.from(hash, 'base64url');
  try {
    const actual = await derive(password, Buffer.from(salt, 'base64url'), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
    });
    return timingSafeEqual(actual, expected);
  } catch {
    // Parameters scrypt refuses (N not a power of two, over maxmem): unreadable, so false.
    return false;
  }
}
