// A TimestampAuthority on its own fresh store and vault (real Secret Service keychain), for tests that do not
// need the HTTP server.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../../src/station/store/database.js';
import { stationMigrations } from '../../../src/station/store/station-migrations.js';
import { SecretVault } from '../../../src/station/keychain/secret-vault.js';
import { OsKeyStore } from '../../../src/station/keychain/os-key-store.js';
import { TimestampAuthority, type TimestampAuthorityOptions } from '../../../src/station/tsa/timestamp-authority.js';
import { systemClock } from '../../../src/station/ports/clock.js';
import { x509 } from '../../../src/station/pki/x509.js';

export interface TsaFixture {
  dir: string;
  database: Database;
  vault: SecretVault;
  tsa: TimestampAuthority;
  /** PEM files of the chain: the root (trust anchor) and the TSA certificate. */
  rootPem: string;
  tsaPem: string;
  /** Opens the store again as a restarted station would (the previous handles are closed first). */
  restart(options?: Partial<TimestampAuthorityOptions>): Promise<void>;
  /**
   * Opens the same store from a second connection while the first stays open, as a new process would after the
   * first one was killed: whatever the first held only in memory is lost to the second.
   */
  openAfterCrash(options?: Partial<TimestampAuthorityOptions>): Promise<{ tsa: TimestampAuthority; close(): Promise<void> }>;
  dispose(): Promise<void>;
}

const keyStore = new OsKeyStore();

export async function openTsaFixture(options: Partial<TimestampAuthorityOptions> = {}): Promise<TsaFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'tsa-test-'));
  const account = `tsa-test:${dir}`;
  const open = async (extra: Partial<TimestampAuthorityOptions>) => {
    const database = await Database.open(join(dir, 'station.sqlite'), stationMigrations);
    const vault = await SecretVault.open(database, keyStore, account);
    const tsa = await TimestampAuthority.open({ database, vault, clock: systemClock, ...options, ...extra });
    return { database, vault, tsa };
  };
  const fixture = { dir, ...(await open({})), rootPem: join(dir, 'root.pem'), tsaPem: join(dir, 'tsa.pem') } as TsaFixture;
  const writeChain = async () => {
    const [tsaCertificate, root] = fixture.tsa.certificates;
    await writeFile(fixture.tsaPem, new x509.X509Certificate(Uint8Array.from(tsaCertificate!)).toString('pem'));
    await writeFile(fixture.rootPem, new x509.X509Certificate(Uint8Array.from(root!)).toString('pem'));
  };
  await writeChain();
  fixture.restart = async (extra = {}) => {
    await fixture.tsa.close();
    await fixture.database.close();
    Object.assign(fixture, await open(extra));
    await writeChain();
  };
  fixture.openAfterCrash = async (extra = {}) => {
    const other = await open(extra);
    return { tsa: other.tsa, close: async () => (await other.tsa.close(), await other.database.close()) };
  };
  fixture.dispose = async () => {
    await fixture.tsa.close();
    await fixture.database.close();
    await keyStore.delete(account);
    await rm(dir, { recursive: true, force: true });
  };
  return fixture;
}
