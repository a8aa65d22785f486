import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestStation, type TestStation } from '../../support/station/test-station.js';
import { uiHeaders } from '../../support/station/ui-credential.js';
import { openStationEvents, type StationEvents } from '../../support/station/station-events.js';
import { createHash } from 'node:crypto';
import { createSoftHsm, SOFTHSM_MODULE, type SoftHsm } from '../../support/pkcs11/pkcs11-softhsm.js';
import { writePkcs12 } from '../../support/pkcs11/pkcs11-nss-database.js';
import { createTestCa, createTestSigner, type TestCa } from '../../support/pki/test-pki.js';
import { runCli } from '../../support/station/run-cli.js';

describe('what the CLI changes in the data directory reaches the running station’s window, without a restart', () => {
  let ca: TestCa;
  let softhsm: SoftHsm;
  let station: TestStation;
  let events: StationEvents;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cli-pushed-'));
    ca = await createTestCa();
    station = await startTestStation({ pcsc: { enabled: false, atrMap: [] } });
    // After the station started: the SoftHSM it knows of has read its configuration already, so the token below is
    // seen only through the copy of the library the CLI adds (a library at another path is loaded apart).
    softhsm = await createSoftHsm();
    await softhsm.createToken('Added By CLI', '1234', []);
    events = await openStationEvents(station.baseUrl, await uiHeaders(station.uiUrl()));
  });
  afterAll(async () => {
    events?.close();
    await station?.dispose();
    await softhsm?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('a PKCS#11 module added with `tokens modules add` is loaded and its token shown', async () => {
    const copy = join(dir, 'libsofthsm2-copy.so');
    await copyFile(SOFTHSM_MODULE, copy);
    const sha256 = createHash('sha256').update(await readFile(copy)).digest('hex');
    const added = await runCli(['tokens', 'modules', 'add', copy, '--trust-sha256', sha256, '--data-dir', station.dataDir], { env: { SOFTHSM2_CONF: softhsm.conf } });
    expect(added.code, added.stderr).toBe(0);
    const after = await events.next((state) => state.tokens.some((token) => token.driver === copy && token.label === 'Added By CLI'));
    expect(after.modules!.user.find((module) => module.path === copy)!.kind).toBe('module');
  });

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
