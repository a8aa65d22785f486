import { createHash, verify, X509Certificate } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createNationalIdCard, type NationalIdTestCard } from '../../../cards/national-id-card.js';
import { NATIONAL_ID_KEYS, NATIONAL_ID_PINS } from '../../../cards/national-id-applet.js';
import { parseCommandApdu } from '../../../cards/command-apdu.js';
import { createTestCa, type TestCa } from '../../../support/pki/test-pki.js';
import { startPcscd, waitFor, waitUntilNoCard } from '../../../support/pcsc/pcsc-test-env.js';
import type { PcscDaemon } from '../../../support/pcsc/pcsc-daemon.js';
import { createPcscTokenSource, type PcscTokenSource } from '../../../../src/station/tokens/pcsc/pcsc-token-source.js';
import type { NationalIdToken } from '../../../../src/station/tokens/pcsc/national-id-token.js';
import type { PinSource, SignRequest, Token } from '../../../../src/station/tokens/token.js';
import { PinLockedError, TokenRemovedError, UserCancelledError } from '../../../../src/station/tokens/token-errors.js';
import { CardStatusError, KeyUsageError } from '../../../../src/station/tokens/pcsc/pcsc-errors.js';
import { InvalidInputError } from '../../../../src/core/errors/invalid-input-error.js';
import { scriptedPins } from '../../../support/pkcs11/pkcs11-pin-source.js';

const DOCUMENT = Buffer.from('the document to sign');
const SHA256 = createHash('sha256').update(DOCUMENT).digest();


describe('national-ID card driver (direct APDU) over the real pcscd', () => {
  let daemon: PcscDaemon;
  let ca: TestCa;
  let source: PcscTokenSource;
  let card: NationalIdTestCard;
  let token: NationalIdToken;

  beforeAll(async () => {
    daemon = await startPcscd();
    ca = await createTestCa();
    source = createPcscTokenSource();
    await source.start();
  });
  afterAll(async () => {
    await source?.stop();
    await daemon?.stop();
  });
  afterEach(async () => {
    await card?.vpcd.remove();
    await waitFor('the token gone', () => source.tokens().length === 0);
    await waitUntilNoCard();
  });

  async function insert(options: Parameters<typeof createNationalIdCard>[0] = {}): Promise<void> {
    card = await createNationalIdCard({ ca, ...options });
    await card.vpcd.insert();
    token = (await waitFor('the token', () => source.tokens()[0])) as NationalIdToken;
  }

  function request(overrides: Partial<SignRequest> & { pin: PinSource }): SignRequest {
    return { certificateId: '9f', hash: SHA256, hashAlgorithm: 'SHA-256', scheme: 'ECDSA', purpose: 'sign', ...overrides };
  }

  function commandsSent(ins: number): number {
    return card.vpcd.received.filter((apdu) => parseCommandApdu(apdu).ins === ins).length;
  }

  it('signs a document hash with the signing key (ECDSA P-256, PIN2) and authenticates with the auth key (PIN1)', async () => {
    await insert();
    const pins = scriptedPins('12345', '1234');
    const signature = await token.sign(request({ pin: pins.source }));
    const signCert = new X509Certificate(card.signCertificate);
    expect(verify('sha256', DOCUMENT, { key: signCert.publicKey, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
    expect(card.applet.signatureCount.get(NATIONAL_ID_KEYS.sign)).toBe(1);

    const challenge = Buffer.from('a challenge from the relying party');
    const proof = await token.sign(request({ certificateId: '81', purpose: 'authenticate', hash: createHash('sha256').update(challenge).digest(), pin: pins.source }));
    expect(verify('sha256', challenge, { key: new X509Certificate(card.authCertificate).publicKey, dsaEncoding: 'ieee-p1363' }, proof)).toBe(true);
    expect(pins.requests.map((a) => a.pinLabel)).toEqual(['PIN2', 'PIN1']);
    expect(pins.requests[0]).toMatchObject({ retriesLeft: 3, finalTry: false, previousAttemptFailed: false });
    expect(pins.handedOut.every((pin) => pin.every((b) => b === 0))).toBe(true); // zeroed after use
    expect(commandsSent(0x2a)).toBe(1);
    expect(commandsSent(0x88)).toBe(1);
  });

  it('signs with RSA-2048 PKCS#1 v1.5 over SHA-384 (DigestInfo built by the driver)', async () => {
    await insert({ algorithm: 'RSA-2048' });
    const hash = createHash('sha384').update(DOCUMENT).digest();
    const signature = await token.sign(request({ hash, hashAlgorithm: 'SHA-384', scheme: 'RSASSA-PKCS1-v1_5', pin: scriptedPins('12345').source }));
    expect(verify('sha384', DOCUMENT, new X509Certificate(card.signCertificate).publicKey, signature)).toBe(true);
  });

  it('never uses the authentication key for a document, nor a hash of the wrong length, nor an unsupported scheme', async () => {
    await insert();
    const pins = scriptedPins();
    await expect(token.sign(request({ certificateId: '81', purpose: 'sign', pin: pins.source }))).rejects.toBeInstanceOf(KeyUsageError);
    await expect(token.sign(request({ certificateId: '9f', purpose: 'authenticate', pin: pins.source }))).rejects.toBeInstanceOf(KeyUsageError);
    await expect(token.sign(request({ hash: SHA256.subarray(0, 20), pin: pins.source }))).rejects.toBeInstanceOf(InvalidInputError);
    await expect(token.sign(request({ hashAlgorithm: 'SHA-512', pin: pins.source }))).rejects.toBeInstanceOf(InvalidInputError);
    await expect(token.sign(request({ scheme: 'RSA-PSS', pin: pins.source }))).rejects.toBeInstanceOf(KeyUsageError);
    expect(pins.requests).toEqual([]);
    expect(commandsSent(0x22) + commandsSent(0x2a) + commandsSent(0x88)).toBe(0);
  });

  it('asks again after a wrong PIN with the retries left, and the counter recovers on success', async () => {
    await insert();
    const pins = scriptedPins('99999', '12345');
    await token.sign(request({ pin: pins.source }));
    expect(pins.requests.map(({ retriesLeft, previousAttemptFailed, finalTry }) => ({ retriesLeft, previousAttemptFailed, finalTry }))).toEqual([
      { retriesLeft: 3, previousAttemptFailed: false, finalTry: false },
      { retriesLeft: 2, previousAttemptFailed: true, finalTry: false },
    ]);
    expect(card.applet.pinTries(NATIONAL_ID_PINS.sign)).toBe(3);
  });

  it('says final try, then blocks the PIN (6983) with a non-retriable error, and reports it locked', async () => {
    await insert();
    card.applet.setPinTries(NATIONAL_ID_PINS.sign, 1);
    expect(await token.pinStatus()).toMatchObject({ retriesLeft: 1, finalTry: true, countLow: true, locked: false, pinpad: false });
    const pins = scriptedPins('00000');
    const error = await token.sign(request({ pin: pins.source })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PinLockedError);
    expect(error).toMatchObject({ code: 'ERR_TOKEN_PIN_LOCKED', retriable: false });
    expect(pins.requests[0]).toMatchObject({ finalTry: true, retriesLeft: 1 });
    expect(await token.pinStatus()).toMatchObject({ retriesLeft: 0, locked: true });
    // Blocked before asking: the user is not asked for a PIN the card would refuse.
    const again = scriptedPins();
    await expect(token.sign(request({ pin: again.source }))).rejects.toBeInstanceOf(PinLockedError);
    expect(again.requests).toEqual([]);
    expect((await token.pinStatusFor('authenticate')).locked).toBe(false);
  });

  it('refuses a PIN of impossible length without spending a try, and stops when the user cancels', async () => {
    await insert();
    await expect(token.sign(request({ pin: scriptedPins('1').source }))).rejects.toBeInstanceOf(InvalidInputError);
    expect(card.applet.pinTries(NATIONAL_ID_PINS.sign)).toBe(3);
    await expect(token.sign(request({ pin: scriptedPins(null).source }))).rejects.toBeInstanceOf(UserCancelledError);
    expect(commandsSent(0x2a)).toBe(0);
  });

  it('turns a card removed mid-APDU into a retriable TokenRemovedError', async () => {
    await insert();
    card.vpcd.inject({ kind: 'remove' }, (apdu) => apdu[1] === 0x2a);
    const error = await token.sign(request({ pin: scriptedPins('12345').source })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenRemovedError);
    expect(error).toMatchObject({ code: 'ERR_TOKEN_REMOVED', retriable: true });
  });

  it('reports an unexpected status word as a CardStatusError, and a slow card still signs', async () => {
    await insert();
    card.vpcd.inject({ kind: 'status', sw: 0x6f00 }, (apdu) => apdu[1] === 0x22);
    const error = await token.sign(request({ pin: scriptedPins('12345').source })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CardStatusError);
    expect(error).toMatchObject({ code: 'ERR_PCSC_CARD_STATUS', details: { operation: 'MSE: SET', sw: '6F00' } });

    card.vpcd.inject({ kind: 'delay', ms: 600 }, (apdu) => apdu[1] === 0x2a);
    const started = Date.now();
    const signature = await token.sign(request({ pin: scriptedPins('12345').source }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    expect(verify('sha256', DOCUMENT, { key: new X509Certificate(card.signCertificate).publicKey, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
  });

  it('stops at an abort: before any APDU, and while the PIN is being asked', async () => {
    await insert();
    const before = card.vpcd.received.length;
    await expect(token.sign(request({ signal: AbortSignal.abort(), pin: scriptedPins().source }))).rejects.toMatchObject({ name: 'AbortError' });
    expect(card.vpcd.received.length).toBe(before);
    const controller = new AbortController();
    const pin: PinSource = async () => {
      controller.abort();
      return new Uint8Array(Buffer.from('12345'));
    };
    await expect(token.sign(request({ signal: controller.signal, pin }))).rejects.toMatchObject({ name: 'AbortError' });
    expect(commandsSent(0x20)).toBe(1); // the PIN status query, not the VERIFY with the PIN
    expect(card.applet.pinTries(NATIONAL_ID_PINS.sign)).toBe(3);
  });

  it('describes the card: reader, ATR, document number, PIN state and certificates', async () => {
    await insert({ documentNumber: 'AB7654321' });
    const description = await (token as Token).describe();
    expect(description).toMatchObject({ kind: 'pcsc', reader: 'Virtual PCD 00 00', serialNumber: 'AB7654321', pin: { retriesLeft: 3, locked: false } });
    expect(description.label).toContain('Mari-Liis Männik');
    expect(description.certificates).toHaveLength(2);
  });
});
