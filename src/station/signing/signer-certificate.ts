import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { HashAlgorithm, SignatureScheme } from '../tokens/token.js';
import { EC_CURVES, type EcCurveInfo, type NamedCurve } from '../pki/ec-curves.js';
import { ecdsaDerToRaw, ecdsaRawToDer } from '../pki/ecdsa-raw-to-der.js';
import { digestAlgorithms } from './digest-algorithms.js';
import { UnsupportedSignerError } from './signing-errors.js';
import { signatureSchemeFor } from './signature-scheme-for.js';
import { verifyRawSignature } from '../pki/verify-raw-signature.js';

const RSA_OID = '1.2.840.113549.1.1.1';
/** id-RSASSA-PSS as the key's algorithm: the key may only make PSS signatures (RFC 4055 section 1.2). */
const RSA_PSS_OID = '1.2.840.113549.1.1.10';
const EC_OID = '1.2.840.10045.2.1';
const COMMON_NAME_OID = '2.5.4.3';
const CURVE_BY_OID: ReadonlyMap<string, EcCurveInfo> = new Map(Object.values(EC_CURVES).map((curve) => [curve.oid, curve]));

/** The signer's certificate as the formats need it: key type, names, ESS identifiers, signature checks. */
export class SignerCertificate {
  readonly der: Uint8Array;
  readonly certificate: pkijs.Certificate;
  readonly keyAlgorithm: 'RSA' | 'ECDSA';
  /** How the key signs: see signatureSchemeFor (RSA-PSS where the certificate or the key's token mandates it). */
  readonly signatureScheme: SignatureScheme;
  /** Byte length of r (and of s) for ECDSA keys; 0 for RSA. */
  readonly ecdsaFieldSize: number;
  readonly #curve: NamedCurve | undefined;
  readonly publicKey: KeyObject;

  /** `keySchemes`: the schemes the key's token allows it (TokenCertificate.signatureSchemes); absent, any. */
  constructor(der: Uint8Array, keySchemes?: readonly SignatureScheme[]) {
    if (!(der instanceof Uint8Array)) throw new TypeError('certificate must be DER bytes');
    this.der = der;
    try {
      this.certificate = pkijs.Certificate.fromBER(new Uint8Array(der));
    } catch (cause) {
      throw new UnsupportedSignerError(`The signer certificate cannot be parsed: ${(cause as Error).message}`);
    }
    const spki = this.certificate.subjectPublicKeyInfo;
    const algorithm = spki.algorithm.algorithmId;
    if (algorithm === RSA_OID || algorithm === RSA_PSS_OID) {
      this.keyAlgorithm = 'RSA';
      this.ecdsaFieldSize = 0;
      this.#curve = undefined;
    } else if (algorithm === EC_OID) {
      const curve = spki.algorithm.algorithmParams instanceof asn1js.ObjectIdentifier ? spki.algorithm.algorithmParams.valueBlock.toString() : '';
      const known = CURVE_BY_OID.get(curve);
      if (!known) throw new UnsupportedSignerError(`Unsupported elliptic curve ${curve || '(none)'}.`);
      this.keyAlgorithm = 'ECDSA';
      this.ecdsaFieldSize = known.fieldSize;
      this.#curve = known.name;
    } else {
      throw new UnsupportedSignerError(`Unsupported signer key algorithm ${algorithm}.`);
    }
    this.signatureScheme = signatureSchemeFor({ keyAlgorithm: this.keyAlgorithm, pssOnly: algorithm === RSA_PSS_OID }, keySchemes);
    this.publicKey = createPublicKey({ key: Buffer.from(spki.toSchema().toBER()), format: 'der', type: 'spki' });
  }

  /** The subject's common name, else the whole subject: what a visible signature shows as the signer. */
  get displayName(): string {
    const cn = this.certificate.subject.typesAndValues.find((tv) => tv.type === COMMON_NAME_OID);
    if (cn) return String(cn.value.valueBlock.value);
    return this.certificate.subject.typesAndValues.map((tv) => String(tv.value.valueBlock.value)).join(', ');
  }

  digest(hashAlgorithm: HashAlgorithm): Uint8Array {
    return new Uint8Array(createHash(digestAlgorithms[hashAlgorithm].nodeName).update(this.der).digest());
  }

  /**
   * DER IssuerSerial (RFC 5035): issuer as GeneralNames [directoryName] and serial number. ESSCertIDv2 in CAdES
   * and IssuerSerialV2 in XAdES carry exactly this.
   */
  issuerSerialDer(): Uint8Array {
    const issuerSerial = new asn1js.Sequence({
      value: [
        new asn1js.Sequence({
          value: [new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 4 }, value: [this.certificate.issuer.toSchema()] })],
        }),
        this.certificate.serialNumber,
      ],
    });
    return new Uint8Array(issuerSerial.toBER());
  }

  /** True when `signature` (raw: PKCS#1 v1.5 or r||s) is this key's signature over `data` with `hashAlgorithm`. */
  verifies(data: Uint8Array, signature: Uint8Array, hashAlgorithm: HashAlgorithm): boolean {
    if (this.keyAlgorithm === 'ECDSA' && signature.length !== 2 * this.ecdsaFieldSize) return false;
    return verifyRawSignature(this.publicKey, this.signatureScheme, hashAlgorithm, data, signature);
  }

  /**
   * The raw form the formats start from. ECDSA values may arrive DER-encoded (browser and token APIs differ):
   * they are turned into r||s; anything else is returned as is for `verifies` to judge.
   */
  rawSignatureValue(signature: Uint8Array): Uint8Array {
    if (!this.#curve || signature.length === 2 * this.ecdsaFieldSize || signature[0] !== 0x30) return signature;
    try {
      return ecdsaDerToRaw(signature, this.#curve);
    } catch {
      return signature;
    }
  }

  /** The signature in the form CMS carries: RSA as is, ECDSA r||s as a DER Ecdsa-Sig-Value. */
  cmsSignatureValue(signature: Uint8Array): Uint8Array {
    return this.keyAlgorithm === 'RSA' ? signature : ecdsaRawToDer(signature);
  }
}
