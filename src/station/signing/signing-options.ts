import type { SignatureBaseline } from '../../core/schemas/signature-baseline.js';
import type { HashAlgorithm, SignatureScheme } from '../tokens/token.js';
import type { HashSigner } from './hash-signer.js';
import type { TimestampClient } from '../tsa/timestamp-client.js';
import type { ViewerRect } from './pdf/signature-placement.js';
import type { StampLanguage } from '../../core/schemas/stamp-language.js';

/** What the signer consented to and how the signature looks; shared by every format. */
export interface PrepareOptions {
  /** DER signer certificate. */
  certificate: Uint8Array;
  /** DER intermediate certificates to embed (root optional). */
  chain?: readonly Uint8Array[];
  /**
   * DER candidate issuers (a token's certificates, the station's trusted issuers, a configured bundle): the chain
   * embedded is completed from them up to the trust anchor.
   */
  issuers?: readonly Uint8Array[];
  /**
   * The schemes the key's token allows it (TokenCertificate.signatureSchemes): with the certificate they decide how
   * the key signs (signatureSchemeFor), so a token that allows only PSS gets a PSS signature. Absent, no restriction.
   */
  keySchemes?: readonly SignatureScheme[];
  /** The signing reason the signer typed/accepted: PDF /Reason, XAdES commitment qualifier. */
  reason?: string;
  /** PDF only: draw a visible signature (signer, time with time zone, reason), upright and inside the visible page. */
  visible?: boolean;
  /** Visible PDF signature: 1-based page number (default 1). */
  page?: number;
  /**
   * Visible PDF signature: the box in points, measured from the bottom-left corner of the page's visible area as a
   * reader displays it (after CropBox and /Rotate). Default: that corner, 18 pt in, above earlier signatures.
   */
  rect?: ViewerRect;
  /** Visible signature: IANA time zone the signing time is shown in (default: the station's). */
  timeZone?: string;
  /** Visible signature: the labels' language, the document's signing language (default English). */
  stampLanguage?: StampLanguage;
  /** Name shown as the signer; defaults to the certificate's common name. */
  signerName?: string;
  /** Claimed signing time; defaults to now. The signature timestamp gives the trusted time. */
  time?: Date;
  hashAlgorithm?: HashAlgorithm;
  /**
   * PDF: where finish will write. Given here, prepare copies the document next to it while hashing it (one read
   * instead of two, and the signed bytes are the hashed ones); finish must then use the same path, or abort the
   * state to drop the copy.
   */
  outputPath?: string;
  overwrite?: boolean;
  /** See FinishOptions.numberWhenTaken; given here, finish must be given the same. */
  numberWhenTaken?: boolean;
  /** Permissions of the output file (default 0o644, less the umask); the station's data directory wants 0o600. */
  outputMode?: number;
  /** Called as the document is read: bytes done of total. */
  onProgress?: (done: number, total: number) => void;
}

export interface FinishOptions {
  outputPath: string;
  /** The signature timestamp (B-T and up) and, for B-LTA, the document or archive timestamp. */
  timestampClient?: TimestampClient;
  /**
   * Default B-T with a timestampClient, else B-B. B-LT also embeds the certificates and OCSP responses or CRLs of the
   * signer's and the TSA's chains (fetched from the certificates' OCSP and CRL addresses; a revoked signer is
   * refused); B-LTA adds a timestamp over all of it.
   */
  baseline?: SignatureBaseline;
  /** Replace an existing output file (never the input). */
  overwrite?: boolean;
  /**
   * outputPath is the first choice of a default name: when it is taken at the end, `name (2).ext`, `name (3).ext`
   * and so on is written instead, decided by an exclusive link, so nothing is replaced and no name is held meanwhile.
   */
  numberWhenTaken?: boolean;
  /** Permissions of the output file (default 0o644, less the umask). */
  outputMode?: number;
  onProgress?: (done: number, total: number) => void;
}

/** A one-shot signer: the certificate and a function that signs hashes with its key. */
export interface DocumentSigner {
  certificate: Uint8Array;
  chain?: readonly Uint8Array[];
  issuers?: readonly Uint8Array[];
  /** The schemes the key's token allows it; see PrepareOptions.keySchemes. */
  keySchemes?: readonly SignatureScheme[];
  sign: HashSigner;
}

/** What prepare hands out: the hash to sign, and the state finish needs (JSON-safe; keep it server-side). */
export interface PreparedSignature<State> {
  /** Hex hash the signer signs (PKCS#1 v1.5 DigestInfo / ECDSA input). */
  dataToSignDigest: string;
  digestAlgorithm: HashAlgorithm;
  /** How the key must sign: RSA-PSS where the certificate or the key's token mandates it (signatureSchemeFor). */
  signatureScheme: SignatureScheme;
  /** Base64 of the bytes whose hash is dataToSignDigest, for tokens that hash themselves (CKM_SHA256_RSA_PKCS). */
  dataToSign: string;
  state: State;
}
