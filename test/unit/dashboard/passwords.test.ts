import { describe, expect, it } from 'vitest';
import { hashPassword, passwordProblem, verifyAgainstDummy, verifyPassword } from '../../../src/dashboard/passwords.js';

describe('scrypt passwords', () => {
  it('hashes with a random salt into the self-describing format and verifies', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct horse');
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('a malformed or foreign stored hash never matches', async () => {
    const good = await hashPassword('correct horse battery');
    const parts = good.split('$');
    for (const stored of ['', 'plain-text', `bcrypt$${parts.slice(1).join('$')}`, `scrypt$0$8$1$${parts[4]}$${parts[5]}`, `scrypt$16384$8$1$${parts[4]}$AAAA`]) {
      expect(await verifyPassword('correct horse battery', stored)).toBe(false);
    }
  });

  it('checks length bounds and burns dummy work for unknown users', async () => {
    expect(passwordProblem('short')).toBe('password must be 10 to 256 characters');
    expect(passwordProblem(12345678901)).toBe('password must be a string');
    expect(passwordProblem('x'.repeat(10))).toBeNull();
    expect(await verifyAgainstDummy('anything at all')).toBe(false);
  });
});
