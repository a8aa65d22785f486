import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { TrustedIssuers } from '../../station/pki/trusted-issuers.js';
import { openStationData, type StationData } from '../../station/open-station-data.js';
import { findTokenCertificate } from '../../station/tokens/find-token-certificate.js';
import { TokenRegistry } from '../../station/tokens/token-registry.js';
import type { Token } from '../../station/tokens/token.js';
import { openKeyStore, resolveConfig } from '../station-options.js';
import { stdinPinSource } from '../stdin-pin-source.js';
import type { SignerResolver } from './signer-resolver.js';
import { tokenSourcesFor } from './tokens-sources.js';

/**
 * `--token LABEL --cert ID [--pin-stdin]`: a key on any of the station's tokens (PKCS#11 modules and NSS databases,
 * ID cards over PC/SC, the station's own store), opened as `tokens list` shows them. The PIN comes only from stdin
 * and is zeroed on release; the token asks for it per signature, so nothing is signed without it.
 */
export const tokenSignerResolver: SignerResolver = async (options, readSecret) => {
  if (options.token === undefined || options.cert === undefined) {
    throw new InvalidInputError('Name the key with both --token LABEL and --cert ID, as `signing-station tokens list` shows them.');
  }
  if (options.pkcs12 !== undefined) throw new InvalidInputError('--pkcs12 and --token/--cert each name a key; give one of them.');
  const pin = options.pinStdin ? await readSecret() : undefined;
  let data: StationData | undefined;
  let registry: TokenRegistry | undefined;
  let token: Token | undefined;
  const release = async (): Promise<void> => {
    pin?.fill(0);
    try {
      await token?.release();
    } finally {
      try {
        await registry?.stop();
      } finally {
        await data?.close();
      }
    }
  };
  try {
    const config = await resolveConfig(options);
    data = await openStationData(config, await openKeyStore(config));
    registry = new TokenRegistry(tokenSourcesFor(data, options, config));
    await registry.start();
    const found = await findTokenCertificate(registry.tokens(), options.token, options.cert);
    token = found.token;
    const { certificate } = found;
    // An authentication key's certificate says the holder logged in, not that they agreed to a document.
    if (certificate.usage === 'authentication') {
      throw new InvalidInputError(`Certificate ${certificate.id} on ${token.label} is for authentication; sign documents with its signing certificate.`, {
        cert: ['authentication certificate'],
      });
    }
    const scheme = certificate.keyAlgorithm === 'EC' ? 'ECDSA' : 'RSASSA-PKCS1-v1_5';
    const signingToken = token;
    // Tokens hold end-entity certificates: the issuers come from the station's trusted issuers (and any CA the token has).
    const issuers = [...(await TrustedIssuers.load(config.identity.trustedIssuers)).certificates, ...(await token.listCertificates()).map((c) => new Uint8Array(Buffer.from(c.certificate, 'base64')))];
    return {
      certificate: new Uint8Array(Buffer.from(certificate.certificate, 'base64')),
      issuers,
      sign: (hash, hashAlgorithm, mandated) => signingToken.sign({ certificateId: certificate.id, hash, hashAlgorithm, scheme: mandated ?? scheme, pin: stdinPinSource(pin), purpose: 'sign' }),
      release,
    };
  } catch (error) {
    await release();
    throw error;
  }
};
