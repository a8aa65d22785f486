import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../../src/station/store/database.js';
import { AuditLog, auditLogMigrations } from '../../../src/station/audit/audit-log.js';
import { systemClock } from '../../../src/station/ports/clock.js';
import { runCli } from '../../support/station/run-cli.js';
import { openStationData } from '../../../src/station/open-station-data.js';
import { OsKeyStore } from '../../../src/station/keychain/os-key-store.js';

describe('AuditLog', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'audit-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const entry = { clientId: 'shop', method: 'id-signature', signer: 'CN=Signer', documentName: 'a.pdf', documentDigest: 'ab'.repeat(32), outcome: 'signed' as const, detail: null, source: 'web-page' as const, requester: 'https://shop.example' };

  it('appends, lists newest first, survives reopening, and refuses edits', async () => {
    const path = join(dir, 'a.sqlite');
    let db = await Database.open(path, auditLogMigrations);
    await new AuditLog(db, systemClock).append(entry);
    await new AuditLog(db, systemClock).append({ ...entry, outcome: 'declined', detail: 'user declined' });
    await db.close();
    db = await Database.open(path, auditLogMigrations);
    const log = new AuditLog(db, systemClock);
    expect((await log.list()).map((e) => e.outcome)).toEqual(['declined', 'signed']);
    await expect(db.run("UPDATE audit_log SET outcome = 'signed'")).rejects.toThrow('append-only');
    await expect(db.run('DELETE FROM audit_log')).rejects.toThrow('append-only');
    await db.close();
  });

  it('keeps entries written before the source column, as web-page attempts', async () => {
    const path = join(dir, 'old.sqlite');
    let db = await Database.open(path, auditLogMigrations.slice(0, 1));
    await db.run("INSERT INTO audit_log (time, client_id, method, signer, document_name, document_digest, outcome, detail) VALUES ('2026-01-01T00:00:00.000Z', 'shop', 'id-signature', 'CN=Old', 'old.pdf', 'cd', 'signed', NULL)");
    await db.close();
    db = await Database.open(path, auditLogMigrations);
    const log = new AuditLog(db, systemClock);
    await log.append({ ...entry, source: 'cli', clientId: null, requester: null });
    expect((await log.list()).map((e) => [e.signer, e.source, e.requester])).toEqual([
      ['CN=Signer', 'cli', null],
      ['CN=Old', 'web-page', null],
    ]);
    await db.close();
  });

  it('is shown by `signing-station audit`', async () => {
    const data = await openStationData({ dataDir: dir }, new OsKeyStore());
    await data.audit.append(entry);
    await data.close();
    const text = await runCli(['audit', '--data-dir', dir]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('signed   id-signature  from=https://shop.example  client=shop  signer=CN=Signer  a.pdf');
    const json = await runCli(['audit', '--json', '--data-dir', dir]);
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ ...entry, id: 1 })]);
  });
});
