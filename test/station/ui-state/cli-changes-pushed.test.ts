import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestStation, type TestStation } from '../../support/test-station.js';
import { uiHeaders } from '../../support/ui-credential.js';
import { openStationEvents, type StationEvents } from '../../support/station-events.js';
import { createNssDatabase, writePkcs12, type NssDatabase } from '../../support/pkcs11-nss-database.js';
import { createTestCa, createTestSigner, type TestCa } from '../../support/test-pki.js';
import { runCli } from '../../support/run-cli.js';

describe('what the CLI changes in the data directory reaches the running station’s window, without a restart', () => {
  let ca: TestCa;
  let nss: NssDatabase;
  let station: TestStation;
  let events: StationEvents;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cli-pushed-'));
    ca = await createTestCa();
    nss = await createNssDatabase(ca, 'nss-password', [{ name: 'Browser Signer', algorithm: 'P-256' }]);
    station = await startTestStation({ pcsc: { enabled: false, atrMap: [] } });
    events = await openStationEvents(station.baseUrl, await uiHeaders(station.uiUrl()));
  });
  afterAll(async () => {
    events?.close();
    await station?.dispose();
    await nss?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('an NSS database added with `tokens modules add --nss-database` is loaded and its token shown', async () => {
    const before = await events.next(() => true);
    const known = new Set(before.tokens.map((token) => token.id));
    const added = await runCli(['tokens', 'modules', 'add', nss.dir, '--nss-database', '--data-dir', station.dataDir]);
    expect(added.code, added.stderr).toBe(0);
    const after = await events.next((state) => state.modules?.user.some((module) => module.path === nss.dir) === true && state.tokens.some((token) => !known.has(token.id)));
    expect(after.modules!.user.find((module) => module.path === nss.dir)!.kind).toBe('nss-database');
  }, 60_000); // two processes start and open the same store: slow on a loaded machine

  it('a PKCS#12 file imported with `tokens store import` appears as the station’s certificate store', async () => {
    const signer = await createTestSigner(ca, 'CN=Imported Signer,O=Signing Station Tests,C=EE', 'P-256', 'signing');
    const p12 = await writePkcs12(dir, 'imported', signer, ca, 'transport');
    const imported = await runCli(['tokens', 'store', 'import', p12, '--data-dir', station.dataDir], { stdin: 'transport\n' });
    expect(imported.code, imported.stderr).toBe(0);
    const holds = (subject: string) => (state: { tokens: Array<{ certificates: Array<{ subject: string }> }> }) =>
      state.tokens.some((token) => token.certificates.some((certificate) => certificate.subject.includes(subject)));
    const after = await events.next(holds('Imported Signer'));
    expect(after.tokens.find((token) => token.certificates.some((certificate) => certificate.subject.includes('Imported Signer')))!.kind).toBe('store');
  });
});
