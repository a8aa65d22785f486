import { NotFoundError } from '../../../core/errors/not-found-error.js';
import { InvalidInputError } from '../../../core/errors/invalid-input-error.js';
import type { TokenCertificate } from '../../../core/schemas/token-description.js';
import type { HashAlgorithm, PinSource, SignatureScheme, Token, TokenSource } from '../token.js';
import { TokenRegistry } from '../token-registry.js';

export interface SignDigestOptions {
  sources: TokenSource[];
  /** Token id, or its label when that is unique. */
  token: string;
  certificateId: string;
  hash: Uint8Array;
  hashAlgorithm: HashAlgorithm;
  /** Default: PKCS#1 v1.5 for RSA keys, ECDSA for EC keys. */
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
    const token = findToken(registry.tokens(), options.token);
    const certificate = (await token.listCertificates()).find((c) => c.id === options.certificateId.toLowerCase());
    if (!certificate) {
      throw new NotFoundError('ERR_TOKEN_CERTIFICATE_NOT_FOUND', `${token.label} has no certificate ${options.certificateId}; \`tokens list\` shows the ids.`);
    }
    const scheme = options.scheme ?? (certificate.keyAlgorithm === 'EC' ? 'ECDSA' : 'RSASSA-PKCS1-v1_5');
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

function findToken(tokens: Token[], wanted: string): Token {
  const byId = tokens.find((token) => token.id === wanted);
  if (byId) return byId;
  const byLabel = tokens.filter((token) => token.label === wanted);
  if (byLabel.length === 1) return byLabel[0]!;
  if (byLabel.length > 1) {
    throw new InvalidInputError(`Several tokens are labelled ${wanted}; give one of their ids: ${byLabel.map((t) => t.id).join(', ')}.`);
  }
  const known = tokens.map((token) => `${token.label} (${token.id})`).join(', ') || 'none';
  throw new NotFoundError(
    'ERR_TOKEN_NOT_FOUND',
    `No token ${wanted}. Tokens present: ${known}. If yours needs its vendor's PKCS#11 module, add it with \`signing-station tokens modules add PATH\`.`,
  );
}
