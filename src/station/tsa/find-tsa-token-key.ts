import { readPemCertificates } from '../pki/read-pem-certificates.js';
import type { StationConfig } from '../config/station-config.js';
import type { SignatureScheme, Token } from '../tokens/token.js';
import { tokenKeyScheme } from '../signing/token-key-scheme.js';
import type { SourceProblem } from '../tokens/token-registry.js';
import { TsaError } from './tsa-error.js';

export type TsaTokenConfig = NonNullable<StationConfig['tsa']>['token'];

export interface TsaTokenKey {
  token: Token;
  /** How the token lets the key sign (an RSA key may be limited to PSS). */
  signatureScheme: SignatureScheme;
  /** DER, the token's TSA certificate first, then its issuers from `chainFile`, root last. */
  certificates: Uint8Array[];
}

/**
 * Finds the configured TSA token and certificate among the loaded PKCS#11 tokens and builds the chain. Needs no
 * PIN (certificates are public objects), so `tsa chain` can print it too. Tokens list only end-entity
 * certificates, so the issuers come from the configured PEM file; without one the chain is the TSA certificate.
 */
export async function findTsaTokenKey(config: TsaTokenConfig, source: { tokens(): Token[]; problems?(): SourceProblem[] }): Promise<TsaTokenKey> {
  const matches = source.tokens().filter((token) => token.kind === 'pkcs11' && token.label === config.label);
  if (matches.length === 0) {
    const present = source.tokens().filter((token) => token.kind === 'pkcs11').map((token) => `"${token.label}"`);
    const problems = source.problems?.().map((problem) => `${problem.source}: ${problem.message}`) ?? [];
    throw new TsaError(
      'ERR_TSA_TOKEN_NOT_FOUND',
      `The TSA token "${config.label}" (tsa.token.label) is not present. Insert it, or set tsa.token.module to its PKCS#11 module. ` +
        `Tokens present: ${present.join(', ') || 'none'}.${problems.length > 0 ? ` Problems: ${problems.join('; ')}` : ''}`,
      { status: 503, retriable: true },
    );
  }
  if (matches.length > 1) {
    throw new TsaError('ERR_TSA_TOKEN_AMBIGUOUS', `${matches.length} tokens are labelled "${config.label}"; give the TSA token a label of its own and set it in tsa.token.label.`);
  }
  const token = matches[0]!;
  const certificates = await token.listCertificates();
  const certificate = certificates.find((c) => c.id.toLowerCase() === config.certificateId);
  if (!certificate) {
    throw new TsaError(
      'ERR_TSA_TOKEN_CERTIFICATE_NOT_FOUND',
      `The token "${token.label}" has no certificate with CKA_ID ${config.certificateId} (tsa.token.certificateId); it has: ${certificates.map((c) => c.id).join(', ') || 'none'}. ` +
        'Store the TSA certificate on the token under the CKA_ID of its key.',
    );
  }
  const der = new Uint8Array(Buffer.from(certificate.certificate, 'base64'));
  return { token, signatureScheme: tokenKeyScheme(certificate), certificates: config.chainFile ? await chainFrom(der, config.chainFile) : [der] };
}

async function chainFrom(tsaCertificate: Uint8Array, chainFile: string): Promise<Uint8Array[]> {
  const invalid = (reason: string, cause?: unknown): TsaError =>
    new TsaError('ERR_TSA_TOKEN_CHAIN_INVALID', `tsa.token.chainFile ${chainFile}: ${reason}`, cause === undefined ? {} : { cause });
  const issuers = await readPemCertificates(chainFile).catch((error: Error) => {
    throw invalid(error.message, error.cause);
  });
  // The builder matches issuer names and key identifiers and verifies each signature on the way up. Loaded
  // here: only a TSA key on a token with a chain file needs it at start.
  const { x509 } = await import('../pki/x509.js');
  const chain = await new x509.X509ChainBuilder({ certificates: issuers }).build(new x509.X509Certificate(Uint8Array.from(tsaCertificate)));
  const root = chain[chain.length - 1]!;
  if (chain.length < 2 || !(await root.isSelfSigned())) {
    throw invalid(`does not lead from the TSA certificate (last issuer found: ${root.issuer}) to a self-signed root; put its issuers up to the root in the file.`);
  }
  return chain.map((c) => new Uint8Array(c.rawData));
}
