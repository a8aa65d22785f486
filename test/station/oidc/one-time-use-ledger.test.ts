import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../../src/station/store/database.js';
import { oidcMigrations } from '../../../src/station/oidc/oidc-migrations.js';
import { OneTimeUseLedger } from '../../../src/station/oidc/one-time-use-ledger.js';

describe('OneTimeUseLedger (on SQLite)', () => {
  let dir: string;
  let path: string;
  let database: Database;
  let now: number;
  let ledger: OneTimeUseLedger;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ledger-test-'));
    path = join(dir, 'station.sqlite');
    database = await Database.open(path, oidcMigrations);
    now = 1_000;
    ledger = new OneTimeUseLedger(database, () => now);
  });
  afterEach(async () => {
    await database.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  const storeCode = (id: string) =>
    database.run("INSERT INTO oidc_models (model, id, payload, expires_at) VALUES ('AuthorizationCode', ?, '{}', ?)", [id, now + 60]);

  it('lets exactly the first of concurrent uses of the same jti win', async () => {
    const outcomes = await Promise.all([1, 2, 3].map(() => ledger.recordAssertion('jti-a', '{}', now + 300)));
    expect(outcomes).toEqual([true, false, false]);
  });

  it('refuses a recorded jti until it expires, then takes it again', async () => {
    expect(await ledger.recordAssertion('jti-b', '{}', now + 300)).toBe(true);
    expect(await ledger.recordAssertion('jti-b', '{}', now + 300)).toBe(false);
    now += 301;
    expect(await ledger.recordAssertion('jti-b', '{}', now + 300)).toBe(true);
  });

  it('decides each of several concurrent jtis on its own', async () => {
    expect(await ledger.recordAssertion('seen', '{}', now + 300)).toBe(true);
    const outcomes = await Promise.all(['new-1', 'seen', 'new-2', 'new-1'].map((id) => ledger.recordAssertion(id, '{}', now + 300)));
    expect(outcomes).toEqual([true, false, true, false]);
  });

  it('consumes a stored code once, concurrently or one after another, and never an unknown one', async () => {
    await storeCode('code-1');
    await storeCode('code-2');
    expect(await Promise.all([ledger.consume('AuthorizationCode', 'code-1'), ledger.consume('AuthorizationCode', 'code-1')])).toEqual([true, false]);
    expect(await ledger.consume('AuthorizationCode', 'code-1')).toBe(false);
    expect(await ledger.consume('AuthorizationCode', 'unknown')).toBe(false);
    expect(await ledger.consume('Session', 'code-2')).toBe(false);
    expect(await ledger.consume('AuthorizationCode', 'code-2')).toBe(true);
  });

  it('has a use on disk once it is decided: a new connection to the file sees it', async () => {
    await storeCode('code-3');
    expect(await ledger.recordAssertion('jti-durable', '{"iss":"rp"}', now + 300)).toBe(true);
    expect(await ledger.consume('AuthorizationCode', 'code-3')).toBe(true);
    const other = await Database.open(path, oidcMigrations);
    try {
      expect(await other.get("SELECT payload, expires_at FROM oidc_models WHERE model = 'ReplayDetection' AND id = 'jti-durable'")).toEqual({ payload: '{"iss":"rp"}', expires_at: now + 300 });
      expect(await other.get("SELECT consumed_at FROM oidc_models WHERE model = 'AuthorizationCode' AND id = 'code-3'")).toEqual({ consumed_at: now });
    } finally {
      await other.close();
    }
  });

  it('fails the uses the store could not take', async () => {
    await database.close();
    const outcomes = await Promise.allSettled([ledger.recordAssertion('jti-c', '{}', now + 300), ledger.consume('AuthorizationCode', 'x')]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(outcomes[0]).toMatchObject({ reason: { code: 'ERR_STORE_FAILED' } });
  });

  it('decides concurrent jtis and codes each on its own merits', async () => {
    await storeCode('code-4');
    expect(await ledger.recordAssertion('jti-old', '{}', now + 300)).toBe(true);
    const outcomes = await Promise.all([
      ledger.recordAssertion('jti-new', '{}', now + 300),
      ledger.recordAssertion('jti-old', '{}', now + 300),
      ledger.consume('AuthorizationCode', 'code-4'),
      ledger.consume('AuthorizationCode', 'code-4'),
      ledger.consume('AuthorizationCode', 'missing'),
    ]);
    expect(outcomes).toEqual([true, false, true, false, false]);
  });
});
