import { describe, expect, it } from 'vitest';
import {
  checkUrlSyntax,
  isForbiddenAddress,
  resolveAndCheck,
  SsrfGuard,
  type ResolvedAddress,
  type Resolver,
} from '../../../src/events/ssrf-guard.js';

const PUBLIC_V4 = '93.184.216.34';
const PUBLIC_V6 = '2606:2800:220:1:248:1893:25c8:1946';

/** [url, expected]: `true` allowed, otherwise a substring of the refusal reason. */
const URL_CASES: ReadonlyArray<readonly [string, true | string]> = [
  // allowed
  ['https://hooks.example.com/svc', true],
  ['https://hooks.example.com:8443/a?b=c#d', true],
  [`https://${PUBLIC_V4}/hook`, true],
  [`https://[${PUBLIC_V6}]/hook`, true],
  ['https://xn--n3h.example.com/', true],
  ['https://127.0.0.1.nip.io/', true], // a name: judged by its DNS answers at send time
  ['https://8.8.8.8/', true],
  ['https://[::ffff:8.8.8.8]/', true], // mapped, embedded v4 public
  ['https://[64:ff9b::808:808]/', true], // NAT64 of 8.8.8.8
  ['https://172.32.0.1/', true], // just outside 172.16/12
  ['https://100.128.0.1/', true], // just outside 100.64/10
  // scheme, length, syntax, credentials
  ['http://hooks.example.com/', 'https'],
  ['ftp://hooks.example.com/', 'https'],
  ['//hooks.example.com/', 'valid absolute URL'],
  ['hooks.example.com', 'valid absolute URL'],
  [`https://hooks.example.com/${'a'.repeat(2048)}`, '2048'],
  ['https://user:pass@hooks.example.com/', 'credentials'],
  ['https://user@hooks.example.com/', 'credentials'],
  ['https://:pass@hooks.example.com/', 'credentials'],
  ['https://hooks.exa\tmple.com/', 'control characters'],
  [' https://hooks.example.com/', 'control characters'],
  ['https://evil.example.com\\@hooks.example.com/', 'backslash'],
  ['https://1.2.3.4.5/', 'valid absolute URL'],
  // forbidden names
  ['https://localhost/', 'private name'],
  ['https://LOCALHOST./', 'private name'],
  ['https://api.localhost/', 'private name'],
  ['https://printer.local/', 'private name'],
  ['https://svc.default.svc.cluster.local/', 'private name'],
  ['https://metadata.google.internal/computeMetadata/v1/', 'private name'],
  ['https://db.internal./', 'private name'],
  // IPv4 literals in forbidden ranges, including encodings the URL parser normalises
  ['https://127.0.0.1/', 'non-public'],
  ['http://2130706433/', 'https'], // http refused first
  ['https://2130706433/', 'non-public'], // decimal 127.0.0.1
  ['https://0177.0.0.1/', 'non-public'], // octal
  ['https://0x7f.1/', 'non-public'], // hex + short form
  ['https://0x7f000001/', 'non-public'],
  ['https://127.1/', 'non-public'], // short form
  ['https://127.0.0.1./', 'non-public'],
  ['https://%31%32%37.0.0.1/', 'non-public'], // percent-encoded host
  ['https://0/', 'non-public'], // 0.0.0.0
  ['https://0300.0250.0.1/', 'non-public'], // octal 192.168.0.1
  ['https://10.1.2.3/', 'non-public'],
  ['https://100.64.0.1/', 'non-public'],
  ['https://169.254.169.254/latest/meta-data/', 'non-public'],
  ['https://172.16.0.1/', 'non-public'],
  ['https://172.31.255.255/', 'non-public'],
  ['https://192.0.0.8/', 'non-public'],
  ['https://192.0.2.1/', 'non-public'],
  ['https://192.168.1.1/', 'non-public'],
  ['https://198.18.0.1/', 'non-public'],
  ['https://198.19.255.1/', 'non-public'],
  ['https://198.51.100.7/', 'non-public'],
  ['https://203.0.113.9/', 'non-public'],
  ['https://224.0.0.1/', 'non-public'],
  ['https://240.0.0.1/', 'non-public'],
  ['https://255.255.255.255/', 'non-public'],
  // IPv6 literals
  ['https://[::]/', 'non-public'],
  ['https://[::1]/', 'non-public'],
  ['https://[0:0:0:0:0:0:0:1]/', 'non-public'],
  ['https://[fc00::1]/', 'non-public'],
  ['https://[fd12:3456::1]/', 'non-public'],
  ['https://[fe80::1]/', 'non-public'],
  ['https://[ff02::1]/', 'non-public'],
  ['https://[::ffff:127.0.0.1]/', 'non-public'], // printed by the parser as ::ffff:7f00:1
  ['https://[::ffff:7f00:1]/', 'non-public'],
  ['https://[::ffff:169.254.169.254]/', 'non-public'],
  ['https://[::127.0.0.1]/', 'non-public'], // IPv4-compatible
  ['https://[::8.8.8.8]/', 'non-public'], // IPv4-compatible is deprecated: refused even when public
  ['https://[64:ff9b::10.0.0.1]/', 'non-public'], // NAT64 of a private v4
  ['https://[64:ff9b::7f00:1]/', 'non-public'],
  ['https://[2001:db8::1]/', 'non-public'],
  ['https://[fd00:ec2::254]/', 'non-public'],
  ['https://[2002:7f00:1::]/', 'non-public'], // 6to4 of 127.0.0.1
];

describe('checkUrlSyntax', () => {
  it('has a table of at least 40 cases', () => {
    expect(URL_CASES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(URL_CASES)('%s -> %s', (raw, expected) => {
    const r = checkUrlSyntax(raw);
    if (expected === true) {
      expect(r).toMatchObject({ ok: true });
    } else {
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toContain(expected);
    }
  });
});

const ADDRESS_CASES: ReadonlyArray<readonly [string, boolean]> = [
  ['0.0.0.0', true],
  ['0.255.255.255', true],
  ['1.0.0.0', false],
  ['9.255.255.255', false],
  ['10.0.0.0', true],
  ['11.0.0.0', false],
  ['100.63.255.255', false],
  ['100.127.255.255', true],
  ['126.255.255.255', false],
  ['127.255.255.254', true],
  ['169.253.255.255', false],
  ['169.254.169.254', true],
  ['172.15.255.255', false],
  ['172.16.0.0', true],
  ['192.0.1.1', false],
  ['192.167.255.255', false],
  ['198.17.255.255', false],
  ['198.20.0.0', false],
  ['223.255.255.255', false],
  ['239.255.255.255', true],
  ['255.255.255.255', true],
  [PUBLIC_V4, false],
  ['::', true],
  ['::1', true],
  ['[::1]', true],
  ['fe80::1%eth0', true],
  ['febf:ffff::1', true],
  ['fec0::1', true],
  ['fbff::1', false],
  ['fdff:ffff::1', true],
  ['ff00::', true],
  ['::ffff:7f00:1', true],
  ['::FFFF:127.0.0.1', true],
  ['::ffff:808:808', false],
  ['::ffff:0:7f00:1', true], // IPv4-translated
  ['::ffff:0:808:808', false],
  ['64:ff9b::a9fe:a9fe', true],
  ['64:ff9b::8.8.8.8', false],
  ['64:ff9b:1::1', true],
  ['2001:db8:ffff::1', true],
  ['2001:db9::1', false],
  ['2001::1', true], // Teredo
  ['2002:808:808::1', false],
  ['2002:c0a8:101::1', true],
  ['fd00:ec2::254', true],
  [PUBLIC_V6, false],
  // not an address, or not canonical: refused rather than guessed
  ['0177.0.0.1', true],
  ['127.1', true],
  ['hooks.example.com', true],
  ['', true],
  ['1:2:3:4:5:6:7:8:9', true],
];

describe('isForbiddenAddress', () => {
  it.each(ADDRESS_CASES)('%s -> %s', (ip, forbidden) => {
    expect(isForbiddenAddress(ip)).toBe(forbidden);
  });
});

/** A resolver whose answers change per call, like an attacker's DNS with TTL 0. */
function scriptedResolver(...answers: ResolvedAddress[][]): Resolver & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    lookup(host) {
      calls.push(host);
      const a = answers[Math.min(calls.length - 1, answers.length - 1)] ?? [];
      return Promise.resolve(a);
    },
  };
}

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

describe('resolveAndCheck', () => {
  const url = new URL('https://hooks.attacker.example/h');

  it('accepts a name whose every address is public and returns the first', async () => {
    const r = await resolveAndCheck(url, scriptedResolver([v4(PUBLIC_V4), v6(PUBLIC_V6)]));
    expect(r).toEqual({ ok: true, hostname: 'hooks.attacker.example', address: PUBLIC_V4, family: 4 });
  });

  it('refuses a name that resolves public at registration and private at send time', async () => {
    const resolver = scriptedResolver([v4(PUBLIC_V4)], [v4('169.254.169.254')]);
    expect((await resolveAndCheck(url, resolver)).ok).toBe(true); // registration
    const atSend = await resolveAndCheck(url, resolver);
    expect(atSend).toEqual({ ok: false, reason: expect.stringContaining('169.254.169.254') });
    expect(resolver.calls).toHaveLength(2);
  });

  it.each([
    [[v4(PUBLIC_V4), v4('10.0.0.5')]],
    [[v6(PUBLIC_V6), v6('::1')]],
    [[v4(PUBLIC_V4), v6('::ffff:7f00:1')]],
    [[v6('fd00:ec2::254'), v4(PUBLIC_V4)]],
  ])('refuses when any one of several addresses is private: %j', async (answers) => {
    const r = await resolveAndCheck(url, scriptedResolver(answers));
    expect(r.ok).toBe(false);
  });

  it('refuses an empty answer and a failed lookup', async () => {
    expect(await resolveAndCheck(url, scriptedResolver([]))).toMatchObject({ ok: false, reason: expect.stringContaining('no address') });
    const failing: Resolver = { lookup: () => Promise.reject(Object.assign(new Error('nx'), { code: 'ENOTFOUND' })) };
    expect(await resolveAndCheck(url, failing)).toMatchObject({ ok: false, reason: expect.stringContaining('ENOTFOUND') });
  });

  it('checks an IP literal without asking DNS', async () => {
    const resolver = scriptedResolver([v4('127.0.0.1')]);
    expect(await resolveAndCheck(new URL(`https://[${PUBLIC_V6}]/`), resolver)).toEqual({
      ok: true,
      hostname: `[${PUBLIC_V6}]`,
      address: PUBLIC_V6,
      family: 6,
    });
    expect(resolver.calls).toHaveLength(0);
  });
});

describe('SsrfGuard allowAddresses (test-only escape)', () => {
  const name = new URL('https://hooks.test.example/');

  it('permits exactly the listed address and nothing near it', async () => {
    const guard = new SsrfGuard({ resolver: scriptedResolver([v4('127.0.0.1')], [v4('127.0.0.2')]), allowAddresses: ['127.0.0.1'] });
    expect(await guard.resolveAndCheck(name)).toMatchObject({ ok: true, address: '127.0.0.1' });
    expect((await guard.resolveAndCheck(name)).ok).toBe(false);
    expect(guard.checkUrlSyntax('https://127.0.0.1/').ok).toBe(true);
    expect(guard.checkUrlSyntax('https://127.0.0.2/').ok).toBe(false);
    // names stay refused whatever the allow-list says
    expect(guard.checkUrlSyntax('https://localhost/').ok).toBe(false);
  });

  it('never applies to the free registration check', () => {
    new SsrfGuard({ allowAddresses: ['127.0.0.1'] });
    expect(checkUrlSyntax('https://127.0.0.1/').ok).toBe(false);
  });

  it('rejects an entry that is not an address', () => {
    expect(() => new SsrfGuard({ allowAddresses: ['localhost'] })).toThrow(/not an IP/);
  });
});

describe('SsrfGuard.request refusals happen before any connection', () => {
  it.each([
    ['http://hooks.example.com/', 'https'],
    ['https://u:p@hooks.example.com/', 'credentials'],
    ['https://hooks.example.com/', '10.0.0.1'],
  ])('%s -> refused (%s)', async (raw, reason) => {
    const guard = new SsrfGuard({ resolver: scriptedResolver([v4('10.0.0.1')]) });
    const r = await guard.request(raw, { method: 'POST', body: '{}', timeoutMs: 1_000 });
    expect(r).toEqual({ kind: 'refused', reason: expect.stringContaining(reason) });
  });

  it('bounds a hanging DNS lookup by the request timeout', async () => {
    const hanging: Resolver = { lookup: () => new Promise<ResolvedAddress[]>(() => undefined) };
    const guard = new SsrfGuard({ resolver: hanging });
    const started = Date.now();
    const r = await guard.request('https://hooks.example.com/', { timeoutMs: 100 });
    expect(r.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
