import type { SignatureScheme, Token } from './token.js';

/**
 * The schemes the token holding `certificate` (DER) allows its key (TokenCertificate.signatureSchemes), for a
 * signature prepared from the certificate alone (start-signing from a web page, the iframe helper, the station
 * window). Undefined when no token present restricts it, or none holds it (a key elsewhere: the certificate decides).
 */
export async function keySchemesOf(tokens: readonly Token[], certificate: Uint8Array): Promise<readonly SignatureScheme[] | undefined> {
  const wanted = Buffer.from(certificate).toString('base64');
  for (const token of tokens) {
    const listed = await token.listCertificates().catch(() => []); // a token removed while being read holds nothing
    const held = listed.find((candidate) => candidate.certificate === wanted);
    if (held) return held.signatureSchemes;
  }
  return undefined;
}
