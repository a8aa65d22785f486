import type { TokenCertificate } from '../../core/schemas/token-description.js';
import type { Token } from './token.js';

/** The first token present that holds `certificate` (DER), with that certificate's entry; undefined when none does. */
export async function tokenHolding(tokens: readonly Token[], certificate: Uint8Array): Promise<{ token: Token; certificate: TokenCertificate } | undefined> {
  const wanted = Buffer.from(certificate).toString('base64');
  for (const token of tokens) {
    const listed = await token.listCertificates().catch(() => []); // a token removed while being read holds nothing
    const held = listed.find((candidate) => candidate.certificate === wanted);
    if (held) return { token, certificate: held };
  }
  return undefined;
}
