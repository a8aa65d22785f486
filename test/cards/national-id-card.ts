import { buildAtr } from './build-atr.js';
import { CardKey } from './card-key.js';
import { EmulatedCard } from './emulated-card.js';
import { NationalIdApplet, type NationalIdCardContent } from './national-id-applet.js';
import { VpcdCard } from './vpcd-card.js';
import { createTestCa, createTestSigner, type KeyAlgorithm, type TestCa } from '../support/pki/test-pki.js';

/** Historical bytes "SSTEID" + a variant byte: 01 accepts extended lengths, 02 only short APDUs. */
export const NATIONAL_ID_ATR_EXTENDED = buildAtr(Buffer.from('53535445494401', 'hex'));
export const NATIONAL_ID_ATR_SHORT = buildAtr(Buffer.from('53535445494402', 'hex'));

export interface NationalIdCardOptions {
  ca?: TestCa;
  algorithm?: KeyAlgorithm;
  extendedLength?: boolean;
  authPin?: string;
  signPin?: string;
  pinTries?: number;
  documentNumber?: string;
  port?: number;
  subject?: string;
}

export interface NationalIdTestCard {
  vpcd: VpcdCard;
  applet: NationalIdApplet;
  ca: TestCa;
  authCertificate: Uint8Array;
  signCertificate: Uint8Array;
  atr: Buffer;
}

/** A national-ID-style card with fresh keys and certificates from the test PKI, ready to insert into vpcd. */
export async function createNationalIdCard(options: NationalIdCardOptions = {}): Promise<NationalIdTestCard> {
  const ca = options.ca ?? (await createTestCa());
  const algorithm = options.algorithm ?? 'P-256';
  const subject = options.subject ?? 'CN=Mari-Liis Männik,2.5.4.5=PNOEE-48010010000,C=EE';
  const auth = await createTestSigner(ca, subject, algorithm, 'authentication');
  const sign = await createTestSigner(ca, subject, algorithm, 'signing');
  const extendedLength = options.extendedLength ?? true;
  const content: NationalIdCardContent = {
    authKey: new CardKey(auth.pkcs8),
    authCertificate: auth.der,
    signKey: new CardKey(sign.pkcs8),
    signCertificate: sign.der,
    documentNumber: options.documentNumber ?? 'AB0123456',
    authPin: options.authPin ?? '1234',
    signPin: options.signPin ?? '12345',
    pinTries: options.pinTries ?? 3,
    extendedLength,
  };
  const applet = new NationalIdApplet(content);
  const atr = extendedLength ? NATIONAL_ID_ATR_EXTENDED : NATIONAL_ID_ATR_SHORT;
  const vpcd = new VpcdCard(new EmulatedCard(atr, [applet]), options.port === undefined ? {} : { port: options.port });
  return { vpcd, applet, ca, authCertificate: auth.der, signCertificate: sign.der, atr };
}
