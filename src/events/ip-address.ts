/**
 * Address classification for the SSRF guard (gateway-api.md, Events > Endpoint requirements 2).
 *
 * Input is an address as a resolver or the WHATWG URL parser prints it: canonical dotted-quad IPv4 or
 * any valid IPv6 text (optionally bracketed, optionally with a `%zone`). Anything else is judged
 * forbidden: a guard that cannot read an address must not let a request through.
 */
import { isIPv4, isIPv6 } from 'node:net';

type V4Range = readonly [base: number, prefix: number];

/** RFC 6890 special-purpose IPv4 blocks plus the documentation and benchmarking nets. */
const FORBIDDEN_V4: readonly V4Range[] = [
  [v4('0.0.0.0'), 8], // "this network"
  [v4('10.0.0.0'), 8], // RFC 1918
  [v4('100.64.0.0'), 10], // RFC 6598 carrier-grade NAT
  [v4('127.0.0.0'), 8], // loopback
  [v4('169.254.0.0'), 16], // link-local, includes the 169.254.169.254 metadata address
  [v4('172.16.0.0'), 12], // RFC 1918
  [v4('192.0.0.0'), 24], // IETF protocol assignments
  [v4('192.0.2.0'), 24], // TEST-NET-1
  [v4('192.168.0.0'), 16], // RFC 1918
  [v4('198.18.0.0'), 15], // benchmarking
  [v4('198.51.100.0'), 24], // TEST-NET-2
  [v4('203.0.113.0'), 24], // TEST-NET-3
  [v4('224.0.0.0'), 4], // multicast
  [v4('240.0.0.0'), 4], // reserved, includes 255.255.255.255 broadcast
];

/** Parses strict dotted-quad text (no leading zeros, no short forms) to an unsigned 32-bit number. */
function parseV4(text: string): number | null {
  if (!isIPv4(text)) return null;
  const parts = text.split('.');
  let n = 0;
  for (const p of parts) {
    // isIPv4 accepts no leading zeros already; this keeps the invariant explicit.
    if (p.length > 1 && p.startsWith('0')) return null;
    n = n * 256 + Number(p);
  }
  return n >>> 0;
}

function v4(text: string): number {
  const n = parseV4(text);
  if (n === null) throw new Error(`bad IPv4 constant ${text}`);
  return n;
}

function inV4Range(n: number, [base, prefix]: V4Range): boolean {
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return ((n & mask) >>> 0) === ((base & mask) >>> 0);
}

function isForbiddenV4(n: number): boolean {
  return FORBIDDEN_V4.some((r) => inV4Range(n, r));
}

/** Expands IPv6 text into eight 16-bit groups; a trailing dotted-quad fills the last two. */
function parseV6(text: string): number[] | null {
  if (!isIPv6(text)) return null;
  let body = text;
  const tail: number[] = [];
  const lastColon = body.lastIndexOf(':');
  const last = body.slice(lastColon + 1);
  if (last.includes('.')) {
    const n = parseV4(last);
    if (n === null) return null;
    tail.push(n >>> 16, n & 0xffff);
    body = body.slice(0, lastColon + 1);
    if (body.endsWith(':') && !body.endsWith('::')) body = body.slice(0, -1);
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const toGroups = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const head = toGroups(halves[0] ?? '');
  const rest = halves.length === 2 ? toGroups(halves[1] ?? '') : [];
  const known = head.length + rest.length + tail.length;
  if (halves.length === 1 && known !== 8) return null;
  if (known > 8) return null;
  const zeros = halves.length === 2 ? new Array<number>(8 - known).fill(0) : [];
  const groups = [...head, ...zeros, ...rest, ...tail];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

function g(groups: readonly number[], i: number): number {
  return groups[i] ?? 0;
}

function embeddedV4(groups: readonly number[], hi: number): number {
  return ((g(groups, hi) << 16) | g(groups, hi + 1)) >>> 0;
}

function isForbiddenV6(groups: readonly number[]): boolean {
  const first = g(groups, 0);
  const zeroUpTo = (n: number): boolean => groups.slice(0, n).every((x) => x === 0);

  // ::/96 covers :: (unspecified), ::1 (loopback) and the deprecated IPv4-compatible ::a.b.c.d
  // (RFC 4291 2.5.5.1). None is a legitimate delivery target, so the whole block is refused.
  if (zeroUpTo(6)) return true;
  // ::ffff:0:0/96 IPv4-mapped: the socket talks IPv4, so judge the embedded address.
  if (zeroUpTo(5) && g(groups, 5) === 0xffff) return isForbiddenV4(embeddedV4(groups, 6));
  // ::ffff:0:0:0/96 IPv4-translated (RFC 2765 SIIT): same judgement.
  if (zeroUpTo(4) && g(groups, 4) === 0xffff && g(groups, 5) === 0) return isForbiddenV4(embeddedV4(groups, 6));
  // 64:ff9b::/96 well-known NAT64 prefix (RFC 6052): the translator reaches the embedded address.
  if (first === 0x64 && g(groups, 1) === 0xff9b && groups.slice(2, 6).every((x) => x === 0)) {
    return isForbiddenV4(embeddedV4(groups, 6));
  }
  // 64:ff9b:1::/48 local-use NAT64 (RFC 8215): translator-specific, refused outright.
  if (first === 0x64 && g(groups, 1) === 0xff9b && g(groups, 2) === 1) return true;
  // 2002::/16 6to4 (RFC 3056) carries an IPv4 address in groups 1-2.
  if (first === 0x2002) return isForbiddenV4(embeddedV4(groups, 1));
  // 2001:0::/32 Teredo carries an obfuscated IPv4 server/client; never a webhook host.
  if (first === 0x2001 && g(groups, 1) === 0) return true;
  // 2001:db8::/32 documentation (RFC 3849).
  if (first === 0x2001 && g(groups, 1) === 0xdb8) return true;
  // 100::/64 discard-only (RFC 6666).
  if (first === 0x100 && groups.slice(1, 4).every((x) => x === 0)) return true;
  // fc00::/7 unique-local; includes fd00:ec2::254, the EC2 IPv6 metadata address.
  if ((first & 0xfe00) === 0xfc00) return true;
  // fe80::/10 link-local and the deprecated fec0::/10 site-local.
  if ((first & 0xffc0) === 0xfe80 || (first & 0xffc0) === 0xfec0) return true;
  // ff00::/8 multicast.
  if ((first & 0xff00) === 0xff00) return true;
  return false;
}

/** Strips URL brackets and an interface zone (`fe80::1%eth0`) from address text. */
export function bareAddress(ip: string): string {
  let s = ip.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const zone = s.indexOf('%');
  return zone === -1 ? s : s.slice(0, zone);
}

/** 4 or 6 for a literal address (bracketed IPv6 accepted), 0 for anything else. */
export function addressFamily(ip: string): 0 | 4 | 6 {
  const s = bareAddress(ip);
  if (parseV4(s) !== null) return 4;
  if (parseV6(s) !== null) return 6;
  return 0;
}

/**
 * True when a connection to `ip` must be refused. Unparseable or non-canonical text (for example
 * `0177.0.0.1`, which the URL parser would have normalised first) is refused rather than guessed at.
 */
export function isForbiddenAddress(ip: string): boolean {
  const s = bareAddress(ip);
  const n4 = parseV4(s);
  if (n4 !== null) return isForbiddenV4(n4);
  const n6 = parseV6(s);
  if (n6 !== null) return isForbiddenV6(n6);
  return true;
}

/** Canonical comparison key so `::ffff:7f00:1` and `::FFFF:127.0.0.1` match the same allow entry. */
export function addressKey(ip: string): string | null {
  const s = bareAddress(ip);
  const n4 = parseV4(s);
  if (n4 !== null) return `4:${n4}`;
  const n6 = parseV6(s);
  return n6 === null ? null : `6:${n6.join(':')}`;
}
