import type { TokenDescription } from '../../core/schemas/token-description.js';
import type { HashSigningMethod } from '../../core/schemas/hash-signing-api.js';
import type { WEB_EID_LOGIN_METHOD } from '../../core/schemas/iframe-protocol.js';

/**
 * Which key holders an iframe method reads: ID-card methods the cards the station drives over PC/SC, then cards
 * and tokens behind PKCS#11 middleware (so does Web eID identification); USB-token methods PKCS#11 tokens; certificate-store methods the station's
 * store and the browser's NSS database.
 */
export function tokenKindsForMethod(method: HashSigningMethod | typeof WEB_EID_LOGIN_METHOD): readonly TokenDescription['kind'][] {
  if (method.startsWith('cert-store-')) return ['store'];
  if (method.endsWith('-usb-token-signature')) return ['pkcs11'];
  return ['pcsc', 'pkcs11'];
}
