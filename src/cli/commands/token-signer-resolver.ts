import type { TokenCertificate } from '../../core/schemas/token-description.js';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { TrustedIssuers } from '../../station/pki/trusted-issuers.js';
import { findTokenCertificate } from '../../station/tokens/find-token-certificate.js';
import { TokenRegistry } from '../../station/tokens/token-registry.js';
import type { Token } from '../../station/tokens/token.js';
import { cliPinSource, type CliPinSource } from '../pin/cli-pin-source.js';
import type { ResolvedSigner, SignerContext, SignerResolver } from './signer-resolver.js';
import { tokenSourcesFor } from './tokens-sources.js';

/**
 * `--token LABEL [--cert ID] [--pin-stdin]`: a key on any of the station's tokens (PKCS#11 modules and NSS
 * databases, ID cards over PC/SC, the station's own store), opened as `tokens list` shows them. Without --cert, the
 * token's one signing certificate. The PIN is asked when the token wants it: a hidden prompt on a terminal, or the
 * first line of stdin with --pin-stdin; on a pinpad reader the prompt says to type it there. Zeroed on release.
 */
export const tokenSignerResolver: SignerResolver = async (options, context) => {
  if (options.token === undefined) throw new InvalidInputError('--cert names a certificate on a token: give the token too, with --token LABEL.');
  if (options.pkcs12 !== undefined) throw new InvalidInputError('--pkcs12 and --token each name a key; give one of them.');
  const registry = new TokenRegistry(tokenSourcesFor(context.data, options, context.config));
  let token: Token | undefined;
  let pin: CliPinSource | undefined;
  const release = async (): Promise<void> => {
    pin?.zero();
    try {
      await token?.release();
    } finally {
      await registry.stop();
    }
  };
  try {
    await registry.start();
    const found = await findTokenCertificate(registry.tokens(), options.token, options.cert ?? (await onlySigningCertificate(registry.tokens(), options.token)));
    token = found.token;
    assertSigningCertificate(found.certificate, token);
    pin = cliPinSource({ pinStdin: options.pinStdin ?? false, tokenLabel: token.label, readPiped: context.readSecret, progress: context.progress });
    return await signerFor(token, found.certificate, pin, context, release);
  } catch (error) {
    await release();
    throw error;
  }
};

async function signerFor(token: Token, certificate: TokenCertificate, pin: CliPinSource, context: SignerContext, release: () => Promise<void>): Promise<ResolvedSigner> {
  const scheme = certificate.keyAlgorithm === 'EC' ? 'ECDSA' : 'RSASSA-PKCS1-v1_5';
  // Tokens hold end-entity certificates: the issuers come from the station's trusted issuers (and any CA the token has).
  const issuers = [
    ...(await TrustedIssuers.load(context.config.identity.trustedIssuers)).certificates,
    ...(await token.listCertificates()).map((c) => new Uint8Array(Buffer.from(c.certificate, 'base64'))),
  ];
  return {
    method: token.kind,
    certificate: new Uint8Array(Buffer.from(certificate.certificate, 'base64')),
    issuers,
    ...(certificate.signatureSchemes ? { keySchemes: certificate.signatureSchemes } : {}),
    sign: async (hash, hashAlgorithm, mandated) => {
      if ((await token.pinStatus()).pinpad) {
        context.progress.step('waiting for PIN');
        context.progress.clear();
        process.stderr.write(`Type the PIN of ${token.label} on the reader's pinpad.\n`);
      }
      return token.sign({ certificateId: certificate.id, hash, hashAlgorithm, scheme: mandated ?? scheme, pin: pin.source, purpose: 'sign' });
    },
    release,
  };
}

/**
 * The certificate `--cert` would name when the token holds exactly one that signs documents. An unknown or
 * ambiguous token is left to findTokenCertificate, which names the tokens present.
 */
async function onlySigningCertificate(tokens: Token[], wanted: string): Promise<string> {
  const matching = tokens.filter((t) => t.id === wanted || t.label === wanted);
  const token = matching.length === 1 ? matching[0] : undefined;
  if (!token) return '';
  const signing = (await token.listCertificates()).filter((c) => c.usage === 'signing');
  if (signing.length === 1) return signing[0]!.id;
  throw new InvalidInputError(
    `${token.label} holds ${signing.length === 0 ? 'no certificate marked for signing' : `${signing.length} signing certificates`}: choose one with --cert ID (\`signing-station tokens list\` shows them).`,
    { cert: ['required'] },
  );
}

function assertSigningCertificate(certificate: TokenCertificate, token: Token): void {
  // An authentication key's certificate says the holder logged in, not that they agreed to a document.
  if (certificate.usage === 'authentication') {
    throw new InvalidInputError(`Certificate ${certificate.id} on ${token.label} is for authentication; sign documents with its signing certificate.`, {
      cert: ['authentication certificate'],
    });
  }
}
