import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createNationalIdCard, type NationalIdTestCard } from '../../../cards/national-id-card.js';
import { EmulatedCard } from '../../../cards/emulated-card.js';
import { VpcdCard } from '../../../cards/vpcd-card.js';
import { buildAtr } from '../../../cards/build-atr.js';
import { parseCommandApdu } from '../../../cards/command-apdu.js';
import { createTestCa, type TestCa } from '../../../support/pki/test-pki.js';
import { READER_0, READER_1, startPcscd, VPCD_PORT_1, waitFor, waitUntilNoCard } from '../../../support/pcsc/pcsc-test-env.js';
import type { PcscDaemon } from '../../../support/pcsc/pcsc-daemon.js';
import { createPcscTokenSource, type PcscTokenSource } from '../../../../src/station/tokens/pcsc/pcsc-token-source.js';
import { DEFAULT_OPENSC_MODULE, formatAtr } from '../../../../src/station/tokens/pcsc/atr-table.js';
import { SmartCardServiceError } from '../../../../src/station/tokens/pcsc/pcsc-errors.js';

describe('PC/SC token source over the real pcscd', () => {
  let daemon: PcscDaemon;
  let ca: TestCa;
  let source: PcscTokenSource | undefined;
  const cards: VpcdCard[] = [];

  beforeAll(async () => {
    daemon = await startPcscd();
    ca = await createTestCa();
  });
  afterEach(async () => {
    await source?.stop();
    source = undefined;
    await Promise.all(cards.splice(0).map((c) => c.remove()));
    if (!daemon.running) await daemon.start();
    await waitUntilNoCard();
  });
  afterAll(async () => {
    await daemon?.stop();
  });

  async function card(options: Parameters<typeof createNationalIdCard>[0] = {}): Promise<NationalIdTestCard> {
    const created = await createNationalIdCard({ ca, ...options });
    cards.push(created.vpcd);
    return created;
  }

  function started(options: Parameters<typeof createPcscTokenSource>[0] = {}): PcscTokenSource {
    source = createPcscTokenSource({ backoff: { initialMs: 50, maxMs: 200 }, ...options });
    return source;
  }

  it('lists both vpcd readers, empty', async () => {
    const s = started();
    await s.start();
    expect(s.readers()).toEqual([
      { name: READER_0, cardPresent: false },
      { name: READER_1, cardPresent: false },
    ]);
    expect(s.tokens()).toEqual([]);
    expect(s.serviceError()).toBeUndefined();
  });

  it('reports an inserted eID card as a token with both certificates, and its removal', async () => {
    const s = started();
    await s.start();
    let changes = 0;
    s.onChange(() => changes++);
    const eid = await card({ documentNumber: 'AB1000001' });
    await eid.vpcd.insert();
    const token = await waitFor('the eID token', () => s.tokens()[0]);
    expect(token.id).toBe('pcsc:national-id:AB1000001');
    const certificates = await token.listCertificates();
    expect(certificates.map((c) => [c.id, c.usage])).toEqual([
      ['81', 'authentication'],
      ['9f', 'signing'],
    ]);
    expect(Buffer.from(certificates[0]!.certificate, 'base64').equals(Buffer.from(eid.authCertificate))).toBe(true);
    expect(Buffer.from(certificates[1]!.certificate, 'base64').equals(Buffer.from(eid.signCertificate))).toBe(true);
    expect(certificates[1]).toMatchObject({ keyAlgorithm: 'EC', keyParameters: 'P-256', valid: true });
    expect(s.readers()[0]).toEqual({ name: READER_0, cardPresent: true, atr: formatAtr(eid.atr), driver: 'Signing Station eID: national-id (direct APDU)' });
    expect(changes).toBeGreaterThan(0);

    await eid.vpcd.remove();
    await waitFor('the card removal', () => s.tokens().length === 0);
    expect(s.readers()[0]).toEqual({ name: READER_0, cardPresent: false });
  });

  it('follows a card swap and two readers at once', async () => {
    const s = started();
    await s.start();
    const first = await card({ documentNumber: 'AB1000002' });
    const second = await card({ documentNumber: 'AB1000003' });
    const third = await card({ documentNumber: 'AB1000004', port: VPCD_PORT_1 });
    await first.vpcd.insert();
    await third.vpcd.insert();
    await waitFor('two tokens', () => s.tokens().length === 2);
    await first.vpcd.remove();
    await waitFor('the first card gone', () => s.tokens().length === 1);
    await second.vpcd.insert();
    await waitFor('the swapped card', () => s.tokens().some((t) => t.id.endsWith('AB1000003')) && s.tokens().length === 2);
    expect(s.tokens().map((t) => t.id).sort()).toEqual(['pcsc:national-id:AB1000003', 'pcsc:national-id:AB1000004']);
  });

  it('reads certificates with short READ BINARY chunks on a short-APDU card, one extended read otherwise', async () => {
    const s = started();
    await s.start();
    const short = await card({ extendedLength: false, documentNumber: 'AB1000005', algorithm: 'RSA-2048' });
    await short.vpcd.insert();
    const token = await waitFor('the short-APDU token', () => s.tokens()[0]);
    const reads = short.vpcd.received.map(parseCommandApdu).filter((c) => c.ins === 0xb0);
    expect(reads.every((c) => !c.extended && c.le <= 256)).toBe(true);
    expect(reads.some((c) => ((c.p1 << 8) | c.p2) > 0)).toBe(true); // offsets were used
    const certificates = await token.listCertificates();
    expect(Buffer.from(certificates[1]!.certificate, 'base64').equals(Buffer.from(short.signCertificate))).toBe(true);
    await short.vpcd.remove();
    await waitFor('removal', () => s.tokens().length === 0);

    const extended = await card({ extendedLength: true, documentNumber: 'AB1000006', algorithm: 'RSA-2048' });
    await extended.vpcd.insert();
    await waitFor('the extended token', () => s.tokens()[0]);
    const extendedReads = extended.vpcd.received.map(parseCommandApdu).filter((c) => c.ins === 0xb0);
    expect(extendedReads.filter((c) => c.extended).length).toBe(2); // one per certificate
  });

  it('names an unknown ATR, does not crash, and takes a mapping from configuration', async () => {
    const atr = buildAtr(Buffer.from('4E4F4E414D45', 'hex'));
    const eid = await card();
    const unknown = new VpcdCard(new EmulatedCard(atr, [eid.applet]));
    cards.push(unknown);
    let s = started();
    await s.start();
    await unknown.insert();
    const reader = await waitFor('the unknown card', () => s.readers().find((r) => r.atr === formatAtr(atr))).catch((e: unknown) => {
      console.log('DEBUG', JSON.stringify(s.readers()), unknown.inserted, unknown.received.length);
      throw e;
    });
    expect(reader.problem).toContain(formatAtr(atr));
    expect(reader.problem).toContain('pcsc.atrMap');
    expect(reader.driver).toBeUndefined();
    expect(s.tokens()).toEqual([]);
    await s.stop();

    s = started({ atrMappings: [{ atr: formatAtr(atr), name: 'Mapped eID', driver: { kind: 'apdu', driver: 'national-id', extendedLength: true } }] });
    await s.start();
    expect(s.tokens()).toHaveLength(1);
    expect(s.readers()[0]?.driver).toBe('Mapped eID: national-id (direct APDU)');
  });

  it('names the PKCS#11 module for a card OpenSC serves (masked ATR)', async () => {
    const piv = new VpcdCard(new EmulatedCard(buildAtr(Buffer.from('53535450495607', 'hex')), []));
    cards.push(piv);
    const s = started();
    await s.start();
    await piv.insert();
    await waitFor('the PIV card', () => s.readers().find((r) => r.cardPresent));
    expect(s.readers()[0]?.driver).toBe(`PIV card: PKCS#11 ${DEFAULT_OPENSC_MODULE}`);
    expect(s.pkcs11Modules()).toEqual([DEFAULT_OPENSC_MODULE]);
    expect(s.tokens()).toEqual([]);
  });

  it('survives pcscd stopping and restarting: typed retriable error, then readers and cards again', async () => {
    const s = started();
    await s.start();
    const eid = await card({ documentNumber: 'AB1000007' });
    await eid.vpcd.insert();
    await waitFor('the token', () => s.tokens()[0]);
    await daemon.stop();
    await eid.vpcd.remove();
    const error = await waitFor('the service error', () => s.serviceError());
    expect(error).toBeInstanceOf(SmartCardServiceError);
    expect(error).toMatchObject({ code: 'ERR_PCSC_SERVICE_NOT_RUNNING', retriable: true });
    expect(s.readers()).toEqual([]);
    expect(s.tokens()).toEqual([]);

    await daemon.start();
    await eid.vpcd.insert();
    await waitFor('the token after the restart', () => s.tokens()[0], 8000);
    expect(s.serviceError()).toBeUndefined();
    expect(s.readers().map((r) => r.name)).toEqual([READER_0, READER_1]);
  });

  it('starts while pcscd is down and picks it up when it comes', async () => {
    await daemon.stop();
    const s = started();
    await s.start();
    expect(s.serviceError()).toBeInstanceOf(SmartCardServiceError);
    await daemon.start();
    await waitFor('the readers', () => s.readers().length === 2, 8000);
    expect(s.serviceError()).toBeUndefined();
  });
});
