import type { TokenDescription } from '../../core/schemas/token-description.js';
import type { HashSigningMethod } from '../../core/schemas/hash-signing-api.js';
import type { WEB_EID_LOGIN_METHOD } from '../../core/schemas/iframe-protocol.js';

/**
 * Which key holders an iframe method reads: ID-card methods the cards the station drives over PC/SC, then cards
 * and tokens behind PKCS#11 middleware (so does Web eID identification); USB-token methods (the French and
 * Romanian ones, the Vietnamese CA tokens) PKCS#11 tokens; certificate-store methods and the local unverified
 * certificate the station's store and the browser's NSS database; AutoFirma-type signing all of them.
 */
export function tokenKindsForMethod(method: HashSigningMethod | typeof WEB_EID_LOGIN_METHOD): readonly TokenDescription['kind'][] {
  if (method.startsWith('cert-store-') || method === 'local-adv-unverified-signature') return ['store'];
  if (method.endsWith('-token-signature')) return ['pkcs11'];
  // AutoFirma offers every certificate the computer has: the store's, then cards and tokens.
  if (method === 'es-autofirma-signature') return ['store', 'pcsc', 'pkcs11'];
  return ['pcsc', 'pkcs11'];
}
