/**
 * Password hashing with node:crypto scrypt. Stored form: `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>`, so the
 * cost can be raised later without invalidating existing hashes.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const N = 16_384;
const R = 8;
const P = 1;
const KEY_LEN = 32;

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

function derive(password: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LEN, { ...opts, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export function passwordProblem(password: unknown): string | null {
  if (typeof password !== 'string') return 'password must be a string';
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    return `password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`;
  }
  return null;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N, r: R, p: P });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Constant-time check; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (![n, r, p].every((x) => Number.isSafeInteger(x) && x > 0)) return false;
  const salt = Buffer.from(parts[4] ?? '', 'base64');
  const expected = Buffer.from(parts[5] ?? '', 'base64');
  if (expected.length !== KEY_LEN) return false;
  const got = await derive(password, salt, { N: n, r, p });
  return timingSafeEqual(got, expected);
}

let dummy: Promise<string> | undefined;

/** Burns the same scrypt work as a real check, so an unknown e-mail is not told apart by timing. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummy ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(password, await dummy);
  return false;
}

/** Length a password set through the dashboard must have (NIST SP 800-63B asks for at least 8; we ask 12). */
export const STRONG_PASSWORD_MIN = 12;

// The most used passwords' stems (public breach corpora); a password that is one of them plus digits and
// punctuation, or the reverse, is refused. Deliberately short: length and the other rules do the rest.
const COMMON_STEMS = new Set([
  'password', 'passw0rd', 'p@ssw0rd', 'p@ssword', 'qwerty', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm', 'letmein', 'welcome',
  'iloveyou', 'admin', 'administrator', 'monkey', 'dragon', 'football', 'baseball', 'sunshine', 'princess', 'master',
  'shadow', 'superman', 'trustno1', 'abc', 'abcdef', 'changeme', 'secret', 'login', 'default', 'starwars', 'whatever',
]);

/** `s` is one short unit repeated (`abcabcabc`, `aaaa`), or a run of consecutive characters (`123456`, `lmnop`). */
function isPatterned(s: string): boolean {
  for (let unit = 1; unit <= s.length / 3; unit++) {
    if (s.length % unit === 0 && s.slice(0, unit).repeat(s.length / unit) === s) return true;
  }
  let up = true;
  let down = true;
  for (let i = 1; i < s.length; i++) {
    const d = s.charCodeAt(i) - s.charCodeAt(i - 1);
    if (d !== 1) up = false;
    if (d !== -1) down = false;
  }
  return s.length > 2 && (up || down);
}

/**
 * Why a new dashboard password is too weak, or null (security hardening, finding 6): at least 12
 * characters, 6 distinct ones, not built on a common password or a keyboard/number run, and not containing
 * the user's own e-mail name. Cheap and bounded (O(n^2) on <= 256 characters), so it is safe to run on the
 * event loop.
 */
export function weakPasswordProblem(password: unknown, email: string): string | null {
  const basic = passwordProblem(password);
  if (basic !== null) return basic;
  const p = (password as string).normalize('NFC');
  if (p.length < STRONG_PASSWORD_MIN) return `password must be at least ${STRONG_PASSWORD_MIN} characters`;
  if (new Set(p).size < 6) return 'password must use at least 6 different characters';
  const lower = p.toLowerCase();
  const local = email.split('@')[0]?.toLowerCase() ?? '';
  if (local.length >= 3 && lower.includes(local)) return 'password must not contain your e-mail address';
  const core = lower.replace(/^[\d\W_]+|[\d\W_]+$/g, '');
  const alnum = lower.replace(/[\W_]/g, '');
  if (core === '' || COMMON_STEMS.has(core) || isPatterned(alnum) || isPatterned(lower)) {
    return 'password is too common or too simple; use a longer phrase of unrelated words';
  }
  return null;
}
