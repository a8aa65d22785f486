import type { DeskIdentifyMethod } from '../../../core/schemas/desk-api.js';
import type { Translate } from '../i18n/i18n.js';

/** The methods the station names in words, by code; the others are providers, named by their own (brand) name. */
const NAMED = { 'local-token-login': 'method.localLogin', 'ee-web-eid-login': 'method.webEid', 'at-eudi-wallet-login': 'method.eudiWallet' } as const;

/**
 * An identification method as the user knows it, in their language. The station labels methods in English for
 * its logs and integrators ("Smart-ID (sandbox)", "ID card (lv)"); only the brand or country part is kept from it.
 */
export function identifyMethodName(method: DeskIdentifyMethod, t: Translate): string {
  if (Object.hasOwn(NAMED, method.code)) return t(NAMED[method.code as keyof typeof NAMED]);
  const card = /^ID card \((.+)\)$/.exec(method.label);
  if (card) return t('method.idCardOf', { country: card[1]! });
  const sandbox = /^(.+) \(sandbox( provider page)?\)$/.exec(method.label);
  if (sandbox) return t(sandbox[2] ? 'method.sandboxPage' : 'method.sandbox', { name: sandbox[1]! });
  return method.label;
}
