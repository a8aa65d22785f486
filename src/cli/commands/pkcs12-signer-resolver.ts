import { readFile } from 'node:fs/promises';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { readPkcs12, type Pkcs12Entry } from '../../station/pki/pkcs12-reader.js';
import { SigningError } from '../../station/signing/signing-errors.js';
import { softKeySigner } from '../../station/signing/soft-key-signer.js';
import type { SignerResolver } from './signer-resolver.js';

/** `--pkcs12 FILE [--pin-stdin]`: the first key of the file with its certificate and chain; the password is zeroed. */
export const pkcs12SignerResolver: SignerResolver = async (options, context) => {
  if (options.token !== undefined || options.cert !== undefined) {
    throw new InvalidInputError('--token/--cert name a key on a PKCS#11 token or an ID card, not in a --pkcs12 file; give one or the other.');
  }
  if (!options.pkcs12) throw new InvalidInputError('Name the signing key: --token LABEL (see `signing-station tokens list`), or --pkcs12 FILE.');
  const file = new Uint8Array(
    await readFile(options.pkcs12).catch((cause: NodeJS.ErrnoException) => {
      throw new InvalidInputError(`--pkcs12 ${options.pkcs12} cannot be read (${cause.code ?? cause.message}).`, { pkcs12: ['unreadable'] });
    }),
  );
  const password = options.pinStdin ? await context.readSecret() : Buffer.alloc(0);
  let entries: Pkcs12Entry[];
  try {
    entries = await readPkcs12(file, password);
  } catch (cause) {
    if (cause instanceof InvalidInputError) throw new SigningError('ERR_SIGNING_PKCS12_UNREADABLE', cause.message, { status: 400, cause });
    throw cause;
  } finally {
    password.fill(0);
  }
  const [entry, ...others] = entries as [Pkcs12Entry, ...Pkcs12Entry[]];
  for (const other of others) other.pkcs8.fill(0);
  return {
    method: 'pkcs12',
    certificate: entry.certificate,
    chain: entry.chain,
    sign: softKeySigner(entry.pkcs8),
    release: async () => void entry.pkcs8.fill(0),
  };
};
