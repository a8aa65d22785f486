import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Database } from '../../../src/station/store/database.js';
import { SecretVault, secretVaultMigrations } from '../../../src/station/keychain/secret-vault.js';
import { OsKeyStore } from '../../../src/station/keychain/os-key-store.js';

describe('SecretVault over the real Secret Service', () => {
  let dir: string;
  let db: Database;
  const keyStore = new OsKeyStore();
  const account = `master-key:test-${randomUUID()}`;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vault-test-'));
    db = await Database.open(join(dir, 'v.sqlite'), secretVaultMigrations);
  });
  afterEach(async () => {
    await db.close();
    await keyStore.delete(account);
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the master key in the keychain and no plaintext secret on disk', async () => {
    await keyStore.assertReachable();
    const vault = await SecretVault.open(db, keyStore, account);
    const secret = Buffer.from('client-secret-that-must-not-leak-0123456789');
    await vault.put('client-secret:demo', secret);
    expect(Buffer.from((await vault.get('client-secret:demo'))!)).toEqual(secret);
    expect((await keyStore.get(account))?.length).toBe(32);

    await db.run('PRAGMA wal_checkpoint(TRUNCATE)');
    for (const file of await readdir(dir)) {
      expect((await readFile(join(dir, file))).includes(secret)).toBe(false);
    }
  });

  it('refuses a ciphertext moved to another name or altered', async () => {
    const vault = await SecretVault.open(db, keyStore, account);
    await vault.put('a', Buffer.from('value-a'));
    await db.run("INSERT INTO secrets (name, nonce, ciphertext, updated_at) SELECT 'b', nonce, ciphertext, updated_at FROM secrets WHERE name = 'a'");
    await expect(vault.get('b')).rejects.toMatchObject({ code: 'ERR_VAULT_SECRET_CORRUPT' });
  });

  it('says so when the keychain lost the master key of existing secrets', async () => {
    const vault = await SecretVault.open(db, keyStore, account);
    await vault.put('a', Buffer.from('value-a'));
    await keyStore.delete(account);
    await expect(SecretVault.open(db, keyStore, account)).rejects.toMatchObject({ code: 'ERR_VAULT_MASTER_KEY_MISSING' });
  });

  it('returns null for a secret never stored', async () => {
    const vault = await SecretVault.open(db, keyStore, account);
    expect(await vault.get('nothing')).toBeNull();
  });
});
