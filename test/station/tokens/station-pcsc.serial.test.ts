import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CardProcess } from '../../cards/card-process.js';
import { startPcscd, waitFor, waitUntilCardIn, waitUntilNoCard, READER_0 } from '../../support/pcsc/pcsc-test-env.js';
import type { PcscDaemon } from '../../support/pcsc/pcsc-daemon.js';
import { startTestStation, type TestStation } from '../../support/station/test-station.js';
import { runCli } from '../../support/station/run-cli.js';
import type { TokenDescription } from '../../../src/core/schemas/token-description.js';

// The station as users run it (default token sources: PKCS#11 modules, the certificate store, PC/SC), with a
// national-ID card emulated in a child process behind the real pcscd.
describe('station with PC/SC readers', () => {
  let daemon: PcscDaemon;
  let card: CardProcess;
  let station: TestStation;

  beforeAll(async () => {
    daemon = await startPcscd();
    card = await CardProcess.start({ kind: 'national-id', nationalId: { subject: 'CN=Mari-Liis Männik,2.5.4.5=PNOEE-48010010000,C=EE' } });
    station = await startTestStation();
  });
  afterAll(async () => {
    await station?.dispose();
    await card?.stop();
    await waitUntilNoCard().catch(() => undefined);
    await daemon?.stop();
  });

  const nationalIdToken = async (): Promise<TokenDescription | undefined> =>
    (await station.tokens.describe()).tokens.find((token) => token.kind === 'pcsc');

  it('shows readers, then the inserted card with its certificates, then its removal', async () => {
    await station.tokens.start(); // the sources start on first use
    await waitFor('readers', () => station.tokens.readers().length === 2);
    expect(station.tokens.readers().every((reader) => !reader.cardPresent)).toBe(true);

    await card.insert();
    await expect.poll(async () => (await nationalIdToken())?.certificates.length, { timeout: 5000 }).toBe(2);
    const token = (await nationalIdToken())!;
    expect(token.certificates.map((certificate) => certificate.usage).sort()).toEqual(['authentication', 'signing']);
    expect(token.certificates[0]!.subject).toContain('Mari-Liis Männik');
    expect(station.tokens.readers().find((reader) => reader.name === READER_0)).toMatchObject({ cardPresent: true });

    await card.remove();
    await expect.poll(() => nationalIdToken(), { timeout: 5000 }).toBeUndefined();
  });

  it('lists the card in `signing-station tokens list --json`', async () => {
    await card.insert();
    await waitUntilCardIn(READER_0);
    // The station in this process reads the new card too (and OpenSC, one of its PKCS#11 modules, probes it): the CLI
    // starts once that is over. A card busy in another program at the very moment `tokens list` opens it is not
    // listed (a known limit: the PC/SC driver does not retry a sharing violation).
    await expect.poll(() => nationalIdToken(), { timeout: 5000 }).toBeDefined();
    const dataDir = await mkdtemp(join(tmpdir(), 'tokens-pcsc-'));
    try {
      const result = await runCli(['tokens', 'list', '--json', '--no-known-modules', '--data-dir', dataDir]);
      expect(result.code, result.stderr).toBe(0);
      const listing = JSON.parse(result.stdout) as { tokens: TokenDescription[]; readers?: unknown[] };
      const token = listing.tokens.find((t) => t.kind === 'pcsc');
      expect(token, result.stdout + result.stderr).toBeDefined();
      expect(token?.certificates).toHaveLength(2);
    } finally {
      await card.remove();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
