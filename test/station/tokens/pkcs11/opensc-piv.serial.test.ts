// OpenSC's opensc-pkcs11.so over the real pcscd, with the emulated PIV card (in a child process: pkcs11js calls
// block this process's thread, so a card emulated here could never answer). What SoftHSM cannot show: a real PIN
// counter that locks, CKA_ALWAYS_AUTHENTICATE on the PIV signature key (9C), and a token that comes and goes
// through C_WaitForSlotEvent.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CardProcess } from '../../../cards/card-process.js';
import { startPcscd, waitFor, waitUntilNoCard } from '../../../support/pcsc/pcsc-test-env.js';
import { OPENSC_MODULE } from '../../../support/pcsc/pcsc-pkcs11-tool.js';
import type { PcscDaemon } from '../../../support/pcsc/pcsc-daemon.js';
import { createPkcs11TokenSource } from '../../../../src/station/tokens/pkcs11/create-pkcs11-token-source.js';
import type { Pkcs11TokenSource } from '../../../../src/station/tokens/pkcs11/pkcs11-token-source.js';
import type { PinSource, SignatureScheme, Token } from '../../../../src/station/tokens/token.js';
import type { TokenCertificate } from '../../../../src/core/schemas/token-description.js';
import { PinIncorrectError, PinLockedError, TokenRemovedError } from '../../../../src/station/tokens/token-errors.js';
import { scriptedPins } from '../../../support/pkcs11/pkcs11-pin-source.js';
import { verifyWithCertificate } from '../../../support/pkcs11/pkcs11-verify.js';

const PIN = '123456';
let daemon: PcscDaemon;
let card: CardProcess;
let source: Pkcs11TokenSource;

beforeAll(async () => {
  daemon = await startPcscd();
  card = await CardProcess.start({ kind: 'piv', piv: { pinTries: 3, slots: { authentication: 'RSA-2048', signature: 'P-256' } } });
  source = createPkcs11TokenSource({
    includeKnown: false,
    modules: [{ path: OPENSC_MODULE, name: 'OpenSC', kind: 'pkcs11', origin: 'config' }],
    pollIntervalMs: 100,
  });
  await source.start();
});

afterAll(async () => {
  await source?.stop();
  await card?.stop();
  await daemon?.stop();
});

const present = (): Token | undefined => source.tokens()[0];
const waitForToken = () => waitFor('the PIV token', present, 8_000);
const waitForNoToken = () => waitFor('the PIV token to go', () => source.tokens().length === 0, 8_000);

async function certificate(token: Token, usage: TokenCertificate['usage']): Promise<TokenCertificate> {
  const found = (await token.listCertificates()).find((c) => c.usage === usage);
  if (!found) throw new Error(`no ${usage} certificate`);
  return found;
}

async function sign(token: Token, cert: TokenCertificate, scheme: SignatureScheme, pin: PinSource) {
  const message = Buffer.from(`PIV ${scheme} ${cert.id}`);
  const signature = await token.sign({
    certificateId: cert.id,
    hash: createHash('sha256').update(message).digest(),
    hashAlgorithm: 'SHA-256',
    scheme,
    pin,
    purpose: cert.usage === 'signing' ? 'sign' : 'authenticate',
  });
  return verifyWithCertificate(Buffer.from(cert.certificate, 'base64'), scheme, 'SHA-256', message, signature);
}

describe('OpenSC with an emulated PIV card over pcscd', () => {
  it('sees the card inserted and removed while running (C_WaitForSlotEvent), with both certificates classified', async () => {
    expect(source.tokens()).toEqual([]);
    const changed = new Promise<void>((resolve) => source.onChange(resolve));
    await card.insert();
    await changed;
    const token = await waitForToken();
    const description = await token.describe();
    expect(description.driver).toBe(OPENSC_MODULE);
    expect(description.pin).toEqual({ countLow: false, finalTry: false, locked: false, pinpad: false });
    const byUsage = Object.fromEntries(description.certificates.map((c) => [c.usage, c.certificate]));
    expect(byUsage).toEqual({ authentication: card.certificates.authentication, signing: card.certificates.signature });

    await card.remove();
    await waitForNoToken();
    await card.insert();
    expect((await waitForToken()).id).toBe(token.id);
  });

  it('signs with the RSA authentication key (9A) after one PIN, PKCS#1 and PSS, verified by node:crypto', async () => {
    const token = await waitForToken();
    const auth = await certificate(token, 'authentication');
    const pins = scriptedPins(PIN);
    expect(await sign(token, auth, 'RSASSA-PKCS1-v1_5', pins.source)).toBe(true);
    expect(await sign(token, auth, 'RSA-PSS', pins.source)).toBe(true);
    expect(pins.requests.map((r) => r.pinLabel)).toEqual(['PIN']);
    expect(pins.handedOut.every((pin) => pin.every((byte) => byte === 0))).toBe(true);
  });

  it('asks the PIN again before every signature with the PIV signature key (CKA_ALWAYS_AUTHENTICATE)', async () => {
    const token = await waitForToken();
    const signing = await certificate(token, 'signing');
    const pins = scriptedPins(PIN, PIN);
    expect(await sign(token, signing, 'ECDSA', pins.source)).toBe(true);
    expect(await sign(token, signing, 'ECDSA', pins.source)).toBe(true);
    // The user login is still there from the previous test; each signature needed its own context-specific login.
    expect(pins.requests.map((r) => r.pinLabel)).toEqual(['signing PIN', 'signing PIN']);
    await token.release();
  });

  it('a card pulled out during the operation ends it with a retriable TokenRemovedError', async () => {
    const token = await waitForToken();
    const auth = await certificate(token, 'authentication');
    const pullCardThenAnswer: PinSource = async () => {
      await card.remove();
      await waitUntilNoCard(); // the PIN is answered once pcscd has seen the card go
      return new TextEncoder().encode(PIN);
    };
    const error = await sign(token, auth, 'RSASSA-PKCS1-v1_5', pullCardThenAnswer).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenRemovedError);
    expect(error).toMatchObject({ code: 'ERR_TOKEN_REMOVED', retriable: true });
    await waitForNoToken();
    await card.insert();
    await waitForToken();
  });

  it('counts the PIN down with the token flags, then locks it: PinIncorrectError (retriable) until PinLockedError (fatal)', async () => {
    const token = await waitForToken();
    const auth = await certificate(token, 'authentication');
    const wrong = scriptedPins('000000', '000000', '000000');
    const first = await sign(token, auth, 'RSASSA-PKCS1-v1_5', wrong.source).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(PinIncorrectError);
    expect(first).toMatchObject({ retriable: true, details: { finalTry: false } });

    const second = await sign(token, auth, 'RSASSA-PKCS1-v1_5', wrong.source).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(PinIncorrectError);
    expect(second).toMatchObject({ retriesLeft: 1, details: { retriesLeft: 1, finalTry: true } });
    expect(await token.pinStatus()).toMatchObject({ finalTry: true, retriesLeft: 1, locked: false });

    const third = await sign(token, auth, 'RSASSA-PKCS1-v1_5', wrong.source).catch((e: unknown) => e);
    expect(third).toBeInstanceOf(PinLockedError);
    expect(third).toMatchObject({ code: 'ERR_TOKEN_PIN_LOCKED', retriable: false });
    expect(wrong.requests.map((r) => [r.finalTry, r.previousAttemptFailed])).toEqual([
      [false, false],
      [false, true],
      [true, true],
    ]);
    expect(await token.pinStatus()).toMatchObject({ locked: true, retriesLeft: 0 });
    expect(await card.pinTries()).toBe(0);

    // Locked: not even a prompt; the right PIN cannot help.
    const after = scriptedPins(PIN);
    await expect(sign(token, auth, 'RSASSA-PKCS1-v1_5', after.source)).rejects.toBeInstanceOf(PinLockedError);
    expect(after.requests).toEqual([]);
  });
});
