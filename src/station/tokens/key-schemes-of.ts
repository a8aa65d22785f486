import type { SignatureScheme, Token } from './token.js';
import { tokenHolding } from './token-holding.js';

/**
 * The schemes the token holding `certificate` (DER) allows its key (TokenCertificate.signatureSchemes), for a
 * signature prepared from the certificate alone (start-signing from a web page, the iframe helper, the station
 * window). Undefined when no token present restricts it, or none holds it (a key elsewhere: the certificate decides).
 */
export async function keySchemesOf(tokens: readonly Token[], certificate: Uint8Array): Promise<readonly SignatureScheme[] | undefined> {
  return (await tokenHolding(tokens, certificate))?.certificate.signatureSchemes;
}
