import { randomBytes } from 'node:crypto';
import { buildAtr } from './build-atr.js';
import { CardKey } from './card-key.js';
import { EmulatedCard } from './emulated-card.js';
import { PivApplet, type PivSlotContent, type PivSlotName } from './piv-applet.js';
import { VpcdCard } from './vpcd-card.js';
import { createTestCa, createTestSigner, type KeyAlgorithm, type TestCa } from '../support/pki/test-pki.js';

/** Historical bytes "SSTPIV" and a version byte; the station's ATR table maps this family to OpenSC. */
export const PIV_ATR = buildAtr(Buffer.from('53535450495601', 'hex'));

export interface PivTestCard {
  vpcd: VpcdCard;
  applet: PivApplet;
  ca: TestCa;
  certificates: Partial<Record<PivSlotName, Uint8Array>>;
}

/**
 * A PIV card with an RSA authentication key (9A) and an ECDSA signature key (9C) by default, certificates from
 * the test PKI; OpenSC's opensc-pkcs11.so drives it through pcscd and vpcd.
 */
export async function createPivCard(
  options: { ca?: TestCa; pin?: string; pinTries?: number; port?: number; subject?: string; slots?: Partial<Record<PivSlotName, KeyAlgorithm>> } = {},
): Promise<PivTestCard> {
  const ca = options.ca ?? (await createTestCa());
  const subject = options.subject ?? 'CN=Piet Pieterse,O=Signing Station Tests,C=NL';
  const wanted = options.slots ?? { authentication: 'RSA-2048', signature: 'P-256' };
  const slots: Partial<Record<PivSlotName, PivSlotContent>> = {};
  const certificates: Partial<Record<PivSlotName, Uint8Array>> = {};
  for (const [name, algorithm] of Object.entries(wanted) as [PivSlotName, KeyAlgorithm][]) {
    const usage = name === 'signature' ? 'signing' : name === 'authentication' ? 'authentication' : 'other';
    const signer = await createTestSigner(ca, subject, algorithm, usage);
    slots[name] = { key: new CardKey(signer.pkcs8), certificate: signer.der };
    certificates[name] = signer.der;
  }
  const applet = new PivApplet({ slots, pin: options.pin ?? '123456', pinTries: options.pinTries ?? 3, guid: randomBytes(16) });
  const vpcd = new VpcdCard(new EmulatedCard(PIV_ATR, [applet]), options.port === undefined ? {} : { port: options.port });
  return { vpcd, applet, ca, certificates };
}
