import { describe, expect, it } from 'vitest';
import { GUARD_LABELS } from '../../../src/guard/labels.js';
import { mulberry32 } from '../../../src/guard/train.js';
import { hateFunctionalRows, obfuscate, Rnd } from '../../../scripts/guard/hate-functional.js';
import { violenceRows } from '../../../scripts/guard/violence-text.js';

const HATE = GUARD_LABELS.indexOf('hate');
const VIOLENCE = GUARD_LABELS.indexOf('violence');

describe('hate functional training rows', () => {
  const rows = hateFunctionalRows();

  it('is reproducible and free of duplicates', () => {
    expect(hateFunctionalRows().map((r) => r.text)).toEqual(rows.map((r) => r.text));
    expect(new Set(rows.map((r) => r.text)).size).toBe(rows.length);
  });

  it('is contrastive: identity terms and derogatory words occur in hateful and non-hateful rows alike', () => {
    const hateful = rows.filter((r) => r.y[HATE] === 1);
    const benign = rows.filter((r) => r.y[HATE] === 0);
    expect(hateful.length).toBeGreaterThan(800);
    expect(benign.length).toBeGreaterThan(800);
    for (const term of ['Muslims', 'trans people', 'immigrants', 'women', 'vermin', 'disgusting']) {
      expect(hateful.some((r) => r.text.includes(term)), term).toBe(true);
      expect(benign.some((r) => r.text.includes(term)), term).toBe(true);
    }
    // a hateful statement quoted inside a condemnation is labelled non-hateful, threats included; whether it
    // depicts violence is left unknown
    const quoted = benign.filter((r) => /"[^"]+"/.test(r.text));
    expect(quoted.length).toBeGreaterThan(300);
    for (const r of quoted) {
      expect(r.y[HATE], r.text).toBe(0);
      expect(r.y[GUARD_LABELS.indexOf('hate/threatening')], r.text).toBe(0);
      expect(r.y[VIOLENCE], r.text).toBeNull();
    }
  });

  it('labels threats against a group as hate, hate/threatening and violence', () => {
    const threats = rows.filter((r) => r.group === 'hatefn:threat2');
    expect(threats.length).toBeGreaterThan(20);
    for (const r of threats) {
      expect(r.y[GUARD_LABELS.indexOf('hate/threatening')]).toBe(1);
      expect(r.y[VIOLENCE]).toBe(1);
    }
  });

  it('obfuscates hateful rows (leet, spaces, swapped or deleted letters) without touching the label', () => {
    const r = new Rnd(mulberry32(5));
    const text = 'Immigrants are disgusting parasites';
    const variants = new Set(Array.from({ length: 40 }, () => obfuscate(text, r)));
    expect(variants.size).toBeGreaterThan(10);
    for (const v of variants) expect(v).not.toBe(text);
    const hatefulTexts = new Set(rows.filter((x) => x.y[HATE] === 1).map((x) => x.text));
    expect([...hatefulTexts].some((t) => /\b\w ?\w ?\w ?\w\b/.test(t) && /[0-9]/.test(t))).toBe(true);
  });
});

describe('violence training rows', () => {
  it('pairs violent narratives with benign ones built from the same openers', () => {
    const rows = violenceRows();
    const pos = rows.filter((r) => r.y[VIOLENCE] === 1);
    const neg = rows.filter((r) => r.y[VIOLENCE] === 0);
    expect(pos.length).toBeGreaterThan(150);
    expect(neg.length).toBeGreaterThan(50);
    const opener = 'My neighbour has been parking in my spot for months.';
    expect(pos.some((r) => r.text.startsWith(opener))).toBe(true);
    expect(neg.some((r) => r.text.startsWith(opener))).toBe(true);
    expect(violenceRows().map((r) => r.text)).toEqual(rows.map((r) => r.text));
  });
});
