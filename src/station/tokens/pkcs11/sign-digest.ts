import type { TokenCertificate } from '../../../core/schemas/token-description.js';
import { findTokenCertificate } from '../find-token-certificate.js';
import type { HashAlgorithm, PinSource, SignatureScheme, TokenSource } from '../token.js';
import { TokenRegistry } from '../token-registry.js';
import { SignerCertificate } from '../../signing/signer-certificate.js';

export interface SignDigestOptions {
  sources: TokenSource[];
  /** Token id, or its label when that is unique. */
  token: string;
  certificateId: string;
  hash: Uint8Array;
  hashAlgorithm: HashAlgorithm;
  /** Default: what the formats would use (signatureSchemeFor): PSS where the certificate or the token mandates it. */
  scheme?: SignatureScheme;
  pin: PinSource;
  purpose?: 'sign' | 'authenticate';
}

export interface SignDigestResult {
  signature: Uint8Array;
  scheme: SignatureScheme;
  certificate: TokenCertificate;
  token: { id: string; label: string };
}

/** Signs one precomputed hash with a certificate's key on any token (the CLI's `tokens sign-digest`). */
export async function signDigest(options: SignDigestOptions): Promise<SignDigestResult> {
  const registry = new TokenRegistry(options.sources);
  await registry.start();
  try {
    const { token, certificate } = await findTokenCertificate(registry.tokens(), options.token, options.certificateId);
    const scheme = options.scheme ?? new SignerCertificate(Buffer.from(certificate.certificate, 'base64'), certificate.signatureSchemes).signatureScheme;
    try {
      const signature = await token.sign({
        certificateId: certificate.id,
        hash: options.hash,
        hashAlgorithm: options.hashAlgorithm,
        scheme,
        pin: options.pin,
        purpose: options.purpose ?? (certificate.usage === 'authentication' ? 'authenticate' : 'sign'),
      });
      return { signature, scheme, certificate, token: { id: token.id, label: token.label } };
    } finally {
      await token.release();
    }
  } finally {
    await registry.stop();
  }
}
