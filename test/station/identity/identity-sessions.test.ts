import { describe, expect, it } from 'vitest';
import { IdentitySessions } from '../../../src/station/identity/identity-sessions.js';
import { smartIdSimulator } from '../../../src/station/identity/smart-id-simulator.js';
import type { IdentityAttempt } from '../../../src/station/identity/identity-method.js';

async function attempt(userActionMs: number): Promise<IdentityAttempt & { cancelled: () => boolean }> {
  const started = await smartIdSimulator({ userActionMs, userTimeoutMs: 60_000 }).begin({ idcode: '30303039914', country: 'EE' }, { clientId: 'shop', requester: 'shop' });
  let cancelled = false;
  const cancel = started.cancel;
  return Object.assign(started, {
    cancel: () => {
      cancelled = true;
      cancel();
    },
    cancelled: () => cancelled,
  });
}

describe('identification sessions', () => {
  it('tokens are unguessable and distinct', async () => {
    const sessions = new IdentitySessions(10_000);
    const a = sessions.open('shop', 'smartid', await attempt(50));
    const b = sessions.open('shop', 'smartid', await attempt(50));
    expect(a).not.toBe(b);
    expect(Buffer.from(a, 'base64url').length).toBe(32);
  });

  it('a cancelled session stops the attempt and is gone', async () => {
    const sessions = new IdentitySessions(10_000);
    const started = await attempt(5_000);
    const token = sessions.open('shop', 'smartid', started);
    sessions.cancel(token);
    expect(started.cancelled()).toBe(true);
    await expect(sessions.complete(token, 'shop', 'smartid', 0)).rejects.toMatchObject({ code: 'ERR_IDENTITY_SESSION_NOT_FOUND' });
  });

  it('an expired session stops the attempt', async () => {
    const sessions = new IdentitySessions(100);
    const started = await attempt(5_000);
    const token = sessions.open('shop', 'smartid', started);
    await expect.poll(() => started.cancelled()).toBe(true);
    await expect(sessions.complete(token, 'shop', 'smartid', 0)).rejects.toMatchObject({ code: 'ERR_IDENTITY_SESSION_NOT_FOUND' });
  });

  it('two polls waiting at once: one gets the answer, the other is told the session is gone', async () => {
    const sessions = new IdentitySessions(10_000);
    const token = sessions.open('shop', 'smartid', await attempt(100));
    const results = await Promise.allSettled([sessions.complete(token, 'shop', 'smartid', 1_000), sessions.complete(token, 'shop', 'smartid', 1_000)]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((result) => result.status === 'rejected')).toHaveLength(1);
  });
});
