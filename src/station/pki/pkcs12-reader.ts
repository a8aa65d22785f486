import { createPrivateKey, createPublicKey, webcrypto, type KeyObject } from 'node:crypto';
import * as pkijs from 'pkijs';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { x509 } from './x509.js';

const CERT_BAG = '1.2.840.113549.1.12.10.1.3';
const KEY_BAG = '1.2.840.113549.1.12.10.1.1';
const SHROUDED_KEY_BAG = '1.2.840.113549.1.12.10.1.2';
const X509_CERTIFICATE = '1.2.840.113549.1.9.22.1';
const FRIENDLY_NAME = '1.2.840.113549.1.9.20';

export interface Pkcs12Entry {
  /** PKCS#8 DER, unencrypted: the caller encrypts it at rest and zeroes this buffer. */
  pkcs8: Uint8Array;
  certificate: Uint8Array;
  /** The other certificates of the file (the chain), DER. */
  chain: Uint8Array[];
  friendlyName: string | undefined;
}

interface ParsedBag {
  bagId: string;
  bagValue: { toSchema(): { toBER(): ArrayBuffer }; parsedValue?: { toSchema(): { toBER(): ArrayBuffer } }; certId?: string; certValue?: { toBER(): ArrayBuffer } };
  bagAttributes?: Array<{ type: string; values: Array<{ valueBlock: { value: string } }> }>;
}

/**
 * Reads a PKCS#12 (.p12/.pfx) file: MAC checked, SafeContents decrypted (pkijs: PBES2 with PBKDF2 and AES, what
 * OpenSSL 3, current browsers and Windows export), private keys decrypted by OpenSSL through node:crypto (which
 * also knows the PKCS#12 PBE algorithms for keys). Each key is paired with the certificate of the same public key.
 */
export async function readPkcs12(file: Uint8Array, password: Uint8Array): Promise<Pkcs12Entry[]> {
  const engine = new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as never });
  // Copies with exactly their own ArrayBuffer: a Buffer (from stdin, readFile) can be a view into a shared pool.
  const passwordBuffer = new Uint8Array(password).buffer;
  let bags: ParsedBag[];
  try {
    const pfx = pkijs.PFX.fromBER(new Uint8Array(file).buffer);
    await pfx.parseInternalValues({ password: passwordBuffer, checkIntegrity: true }, engine);
    const safe = pfx.parsedValue?.authenticatedSafe;
    if (!safe) throw new Error('no authenticated safe');
    await safe.parseInternalValues({ safeContents: safe.safeContents.map(() => ({ password: passwordBuffer })) }, engine);
    bags = (safe.parsedValue as { safeContents: Array<{ value: { safeBags: ParsedBag[] } }> }).safeContents.flatMap((c) => c.value.safeBags);
  } catch (cause) {
    throw pkcs12Error(cause);
  } finally {
    new Uint8Array(passwordBuffer).fill(0);
  }

  const certificates: Uint8Array[] = [];
  const keys: Array<{ key: KeyObject; friendlyName: string | undefined }> = [];
  const passphrase = Buffer.from(password);
  try {
    for (const bag of bags) {
      if (bag.bagId === CERT_BAG && bag.bagValue.certId === X509_CERTIFICATE && bag.bagValue.parsedValue) {
        certificates.push(new Uint8Array(bag.bagValue.parsedValue.toSchema().toBER()));
      } else if (bag.bagId === SHROUDED_KEY_BAG || bag.bagId === KEY_BAG) {
        const friendlyName = bag.bagAttributes?.find((a) => a.type === FRIENDLY_NAME)?.values[0]?.valueBlock.value;
        keys.push({ key: privateKeyOf(bag, passphrase), friendlyName });
      }
    }
  } finally {
    passphrase.fill(0);
  }
  if (keys.length === 0) throw new InvalidInputError('The PKCS#12 file holds no private key: there is nothing to sign with.');

  const bySpki = new Map(certificates.map((der) => [Buffer.from(new x509.X509Certificate(new Uint8Array(der)).publicKey.rawData).toString('hex'), der]));
  return keys.map(({ key, friendlyName }) => {
    const spki = createPublicKey(key).export({ format: 'der', type: 'spki' }).toString('hex');
    const certificate = bySpki.get(spki);
    if (!certificate) throw new InvalidInputError('A private key in the PKCS#12 file has no certificate in it.');
    return {
      pkcs8: new Uint8Array(key.export({ format: 'der', type: 'pkcs8' })),
      certificate,
      chain: certificates.filter((der) => der !== certificate),
      friendlyName,
    };
  });
}

/** OpenSSL decrypts the key (EncryptedPrivateKeyInfo: PBES2 or a PKCS#12 PBE) and checks it. */
function privateKeyOf(bag: ParsedBag, passphrase: Buffer): KeyObject {
  const der = Buffer.from(bag.bagValue.toSchema().toBER());
  try {
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8', ...(bag.bagId === SHROUDED_KEY_BAG ? { passphrase } : {}) });
  } catch (cause) {
    throw new InvalidInputError(`A private key in the PKCS#12 file cannot be decrypted: ${(cause as Error).message}`);
  } finally {
    der.fill(0);
  }
}

function pkcs12Error(cause: unknown): InvalidInputError {
  const message = cause instanceof Error ? cause.message : String(cause);
  if (/integrity|MAC|password/i.test(message)) {
    return new InvalidInputError('The PKCS#12 password is wrong (the file’s integrity check fails).', { password: ['wrong password'] });
  }
  if (/Unknown "contentEncryptionAlgorithm"|1\.2\.840\.113549\.1\.12\.1\./.test(message)) {
    return new InvalidInputError(
      'The PKCS#12 file uses legacy encryption (RC2 or 3DES with the PKCS#12 KDF). Re-export it with AES, e.g. ' +
        '`openssl pkcs12 -in old.p12 -legacy -nodes | openssl pkcs12 -export -out new.p12` (keep new.p12 private).',
      { file: ['legacy PKCS#12 encryption'] },
    );
  }
  return new InvalidInputError(`Not a readable PKCS#12 file: ${message}`, { file: ['not PKCS#12'] });
}
