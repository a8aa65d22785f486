import type { HashAlgorithm } from '../pki/hash-algorithms.js';
import type { SignatureScheme } from '../tokens/token.js';

/**
 * The seam between the timestamping authority and whatever holds its private key.
 *
 * - The station's own key (default): SoftTsaSigner, an RSA key kept encrypted in the keychain-backed vault and
 *   held as a KeyObject in memory (see tsa-identity.ts).
 * - A key on a PKCS#11 token or card: TokenTsaSigner adapts any `Token` (src/station/tokens/token.ts), so the
 *   PKCS#11 bridge only has to provide the token; the composition root passes the signer to
 *   `TimestampAuthority.open({ signer })` and the station's generated TSA key is then not used.
 *
 * Anything else (a remote HSM, a KMS) implements this interface. The authority checks at start that a probe
 * signature verifies with the first certificate's public key, so a key/certificate mismatch fails early.
 */
export interface TsaSigner {
  /** DER certificates: the TSA's own first (critical EKU timeStamping), then its issuers, root last. */
  readonly certificates: readonly Uint8Array[];
  /**
   * How the key signs: an RSA key PKCS#1 v1.5, or RSA-PSS (MGF1 over the digest, a salt as long as the digest,
   * RFC 4056) where its token allows only that; an EC key ECDSA. The SignerInfo names it.
   */
  readonly signatureScheme: SignatureScheme;
  /** Digest of the signed attributes, and the SignerInfo digestAlgorithm. */
  readonly digestAlgorithm: HashAlgorithm;
  /**
   * Signs `data` (the DER SET OF signed attributes) with `digestAlgorithm`. Returns the CMS signature value:
   * the RSA signature bytes (either scheme), a DER ECDSA-Sig-Value for EC.
   */
  sign(data: Uint8Array): Promise<Uint8Array>;
  /** Releases the key (token session, KeyObject reference). */
  close?(): Promise<void>;
}
