import type { Translate } from '../i18n/i18n.js';

/** The log's method codes (the service interface's) as the user knows them: ID card, USB token, store, or a provider. */
export function methodName(code: string, t: Translate): string {
  if (/-id-signature$|^id-signature$|id-card/.test(code)) return t('method.id-card');
  if (/usb-token/.test(code)) return t('method.usb-token');
  if (/^cert-store/.test(code)) return t('method.cert-store');
  if (/local/.test(code)) return t('method.local');
  return code.replace(/-/g, ' ');
}
