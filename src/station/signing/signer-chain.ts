import { issuerChain } from '../pki/issuer-chain.js';
import type { PrepareOptions } from './signing-options.js';

/**
 * The certificates a signature embeds after the signer's: the chain up to the trust anchor built from what the
 * caller gave (`chain`) and the candidate issuers it knows (`issuers`), so a validator without the issuers at hand
 * can still build the path. When nothing links, the given chain is kept as it is.
 */
export async function signerChain(options: Pick<PrepareOptions, 'certificate' | 'chain' | 'issuers'>): Promise<Uint8Array[]> {
  const given = options.chain ?? [];
  const built = await issuerChain(options.certificate, [...given, ...(options.issuers ?? [])]);
  return built.length > 0 ? built : [...given];
}
