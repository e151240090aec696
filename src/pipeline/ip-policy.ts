/** IPv4/IPv6 allowlist matching for key IP policy: exact addresses or IPv4 CIDRs (a.b.c.d/n). */

function v4ToInt(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null;
    const v = Number(p);
    if (v > 255) return null;
    n = n * 256 + v;
  }
  return n;
}

/** null when an entry is malformed (the key's network policy is invalid). */
export function ipAllowed(ip: string, allow: readonly string[]): boolean | null {
  const addr = v4ToInt(ip);
  let matched = false;
  for (const entry of allow) {
    const slash = entry.indexOf('/');
    if (slash < 0) {
      if (entry.includes(':') ? false : v4ToInt(entry) === null) return null;
      if (entry === ip) matched = true;
      continue;
    }
    const base = v4ToInt(entry.slice(0, slash));
    const bits = Number(entry.slice(slash + 1));
    if (base === null || !Number.isInteger(bits) || bits < 0 || bits > 32) return null;
    if (addr === null) continue;
    const size = 2 ** (32 - bits);
    if (Math.floor(addr / size) === Math.floor(base / size)) matched = true;
  }
  return matched;
}
