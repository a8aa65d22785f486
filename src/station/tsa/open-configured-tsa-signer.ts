import type { SourceProblem } from '../tokens/token-registry.js';
import type { PinSource, Token } from '../tokens/token.js';
import { PinIncorrectError, PinLockedError } from '../tokens/token-errors.js';
import { findTsaTokenKey, type TsaTokenConfig, type TsaTokenKey } from './find-tsa-token-key.js';
import { TokenTsaSigner } from './token-tsa-signer.js';
import { TsaError } from './tsa-error.js';
import type { TsaSigner } from './tsa-signer.js';

/** The environment variable the TSA token's PIN is read from at start (never from the config file). */
export const TSA_PIN_ENV = 'SIGNING_STATION_TSA_PIN';

/**
 * The TSA signer for `config.tsa.token`: the PIN is taken from the environment once (and removed from it, so child
 * processes do not inherit it), held in one buffer and copied for each login, since tokens zero what they are
 * given; `close` zeroes it. A test login here turns a wrong PIN into a start-up error instead of a failing
 * timestamp later. The station never spends a token's last PIN try unattended: a restart loop with a wrong PIN
 * must not lock the TSA key.
 */
export async function openConfiguredTsaSigner(options: {
  config: TsaTokenConfig;
  source: { tokens(): Token[]; problems?(): SourceProblem[] };
  env?: NodeJS.ProcessEnv;
}): Promise<TsaSigner> {
  const env = options.env ?? process.env;
  const value = env[TSA_PIN_ENV];
  delete env[TSA_PIN_ENV];
  if (!value) {
    throw new TsaError('ERR_TSA_TOKEN_PIN_MISSING', `tsa.token is configured: give the station the token's PIN in the ${TSA_PIN_ENV} environment variable.`);
  }
  const pin = Buffer.from(value, 'utf8');
  let key: TsaTokenKey | undefined;
  try {
    key = await findTsaTokenKey(options.config, options.source);
    const status = await key.token.pinStatus();
    if (status.locked) throw lockedError();
    if (status.pinpad) {
      throw new TsaError('ERR_TSA_TOKEN_PINPAD', `The token "${key.token.label}" takes its PIN on a pinpad; an unattended TSA needs a token that accepts the PIN from ${TSA_PIN_ENV}.`);
    }
    if (status.finalTry) {
      throw new TsaError(
        'ERR_TSA_TOKEN_PIN_FINAL_TRY',
        `The token "${key.token.label}" has one PIN try left; the station does not risk it unattended. Log in once with the right PIN (e.g. pkcs11-tool --login --test) to reset the counter, then start again.`,
      );
    }
    // Never the same PIN twice in one login attempt: a wrong one would only burn another try.
    const pinSource: PinSource = async ({ previousAttemptFailed }) => (previousAttemptFailed ? null : Uint8Array.from(pin));
    const signer = new TokenTsaSigner({ token: key.token, certificateId: options.config.certificateId, certificates: key.certificates, signatureScheme: key.signatureScheme, pin: pinSource });
    await loginCheck(signer, key.token.label);
    return {
      certificates: signer.certificates,
      signatureScheme: signer.signatureScheme,
      digestAlgorithm: signer.digestAlgorithm,
      sign: (data) => signer.sign(data),
      close: async () => {
        pin.fill(0);
        await signer.close();
      },
    };
  } catch (error) {
    pin.fill(0);
    await key?.token.release().catch(() => undefined);
    throw error;
  }
}

async function loginCheck(signer: TokenTsaSigner, label: string): Promise<void> {
  try {
    await signer.sign(new TextEncoder().encode('signing-station TSA token login check'));
  } catch (error) {
    if (error instanceof PinIncorrectError) {
      throw new TsaError('ERR_TSA_TOKEN_PIN_INCORRECT', `${TSA_PIN_ENV} is not the PIN of the token "${label}"${error.retriesLeft === undefined ? '' : ` (${error.retriesLeft} tries left)`}; set the right one and start again.`, {
        cause: error,
      });
    }
    if (error instanceof PinLockedError) throw lockedError(error);
    throw error;
  }
}

function lockedError(cause?: unknown): TsaError {
  return new TsaError('ERR_TSA_TOKEN_PIN_LOCKED', 'The TSA token’s PIN is blocked; unblock it with the SO PIN (e.g. pkcs11-tool --init-pin --login --login-type so), then start again.', cause === undefined ? {} : { cause });
}
