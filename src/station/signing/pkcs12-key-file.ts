import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import * as pkijs from 'pkijs';
import { UnsupportedSignerError } from './signing-errors.js';
import { SigningError } from './signing-errors.js';

const BAG = {
  keyBag: '1.2.840.113549.1.12.10.1.1',
  shroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  certBag: '1.2.840.113549.1.12.10.1.3',
};

export interface Pkcs12Contents {
  certificate: Uint8Array;
  /** The other certificates of the file (intermediates, maybe the root). */
  chain: Uint8Array[];
  privateKey: KeyObject;
}

const toArrayBuffer = (bytes: Uint8Array): ArrayBuffer => new Uint8Array(bytes).buffer;

/**
 * Reads a PKCS#12 file with pkijs: integrity (MAC) checked with the password, key bags decrypted (PBES2 as OpenSSL 3
 * writes them), and the certificate whose public key matches the private key picked as the signer's.
 */
export async function readPkcs12(der: Uint8Array, password: Uint8Array): Promise<Pkcs12Contents> {
  const pass = toArrayBuffer(password);
  const keys: KeyObject[] = [];
  const certificates: Uint8Array[] = [];
  try {
    const pfx = pkijs.PFX.fromBER(toArrayBuffer(der));
    await pfx.parseInternalValues({ password: pass, checkIntegrity: true });
    const authSafe = pfx.parsedValue?.authenticatedSafe;
    if (!authSafe) throw new Error('no authenticated safe');
    await authSafe.parseInternalValues({ safeContents: authSafe.safeContents.map(() => ({ password: pass })) });
    for (const contents of authSafe.parsedValue?.safeContents ?? []) {
      for (const bag of contents.value.safeBags) {
        if (bag.bagId === BAG.shroudedKeyBag) {
          const shrouded = bag.bagValue as pkijs.PKCS8ShroudedKeyBag;
          // Public at runtime (pkijs' own PKCS#12 example calls it) but typed protected.
          await (shrouded as unknown as { parseInternalValues(p: { password: ArrayBuffer }): Promise<void> }).parseInternalValues({ password: pass });
          keys.push(createPrivateKey({ key: Buffer.from(shrouded.parsedValue!.toSchema().toBER()), format: 'der', type: 'pkcs8' }));
        } else if (bag.bagId === BAG.keyBag) {
          keys.push(createPrivateKey({ key: Buffer.from((bag.bagValue as pkijs.PrivateKeyInfo).toSchema().toBER()), format: 'der', type: 'pkcs8' }));
        } else if (bag.bagId === BAG.certBag) {
          const certBag = bag.bagValue as pkijs.CertBag;
          if (certBag.parsedValue instanceof pkijs.Certificate) certificates.push(new Uint8Array(certBag.parsedValue.toSchema().toBER()));
        }
      }
    }
  } catch (cause) {
    throw new SigningError('ERR_SIGNING_PKCS12_UNREADABLE', 'The PKCS#12 file cannot be opened: wrong password or unsupported encryption.', {
      status: 400,
      cause,
    });
  }
  const [privateKey] = keys;
  if (!privateKey) throw new UnsupportedSignerError('The PKCS#12 file holds no private key.');
  const publicDer = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  const index = certificates.findIndex((c) => {
    const spki = pkijs.Certificate.fromBER(new Uint8Array(c)).subjectPublicKeyInfo.toSchema().toBER();
    return Buffer.from(spki).equals(publicDer);
  });
  if (index < 0) throw new UnsupportedSignerError('The PKCS#12 file holds no certificate for its private key.');
  return { certificate: certificates[index]!, chain: certificates.filter((_, i) => i !== index), privateKey };
}
