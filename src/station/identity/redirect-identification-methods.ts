/**
 * The redirect-based identification methods of the published browser client 2.140.0 (its OAuth start paths), all
 * simulated by the station's provider page in sandbox mode.
 */
export const REDIRECT_IDENTIFICATION_METHODS = [
  'lv-eparaksts-mobile-login',
  'lv-eparaksts-id-login',
  'mojeid',
  'edoapp-eid-login',
  'at-handy-signatur-login',
  'itsme-login',
  'itsme-login-basic',
  'itsme-login-standard',
  'swedish-bankid-login',
  'idin-login',
  'idin-customer-id-login',
  'verifai-login',
  'yoonik-login',
  'pl-mojeid-login',
  'mit-id-login',
  'mit-id-2-login',
  'norwegian-bankid-login',
  'ftn-login',
  'finnish-ftn-login',
  'gb-one-id-login',
  'veriff-login',
  'lidentite-numerique-login',
  'spid-login',
] as const;
