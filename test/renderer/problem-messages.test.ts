import { describe, expect, it } from 'vitest';
import { STATION_ERROR_CODES } from '../../src/core/errors/station-error-codes.js';
import { BROWSER_ERROR_CODES } from '../../src/core/errors/browser-error-codes.js';
import { catalogues } from '../../src/renderer/src/i18n/catalogues.js';
import { en } from '../../src/renderer/src/i18n/messages-en.js';
import { problemKey } from '../../src/renderer/src/problems/problem-key.js';

/** The codes whose honest plain words are "something went wrong in the station": nothing the user did, nothing more specific to say. */
const GENERAL = new Set(['ERR_INTERNAL', 'ERR_UNKNOWN', 'ERR_HTTP_UNSUPPORTED_MEDIA_TYPE', 'ERR_CLIENT_IFRAME', 'ERR_CLIENT_NO_IFRAME_URL', 'ERR_CLIENT_TOO_LONG_TO_ENCRYPT', 'ERR_IFRAME_FAILED', 'ERR_IFRAME_NOTHING_TO_SIGN']);

describe('errors in plain words', () => {
  const codes = [...STATION_ERROR_CODES, ...BROWSER_ERROR_CODES];

  it('gives every error code a message of its own kind, in every language, translated', () => {
    for (const code of codes) {
      const key = problemKey(code);
      if (!GENERAL.has(code)) expect(key, code).not.toBe('problem.internal');
      for (const [language, messages] of Object.entries(catalogues)) {
        expect(messages[key].trim(), `${language} ${code}`).not.toBe('');
        if (language !== 'en') expect(messages[key], `${language} ${code}`).not.toBe(en[key]);
      }
    }
  });

  it('says what to do, not only what went wrong (each message has a second sentence or an imperative)', () => {
    for (const code of codes) expect(en[problemKey(code)], code).toMatch(/\.\s+\S|(Start|Try|Choose|Insert|Check|Open|Sign|Ask|Wait|Free) /);
  });

  it('names the long-term level and B-T when no revocation status can be had, before anything is signed', () => {
    expect(en[problemKey('ERR_SIGNING_REVOCATION_UNAVAILABLE')]).toMatch(/OCSP or CRL.*long-term level cannot be made.*B-T/);
  });

  it('gives a code from elsewhere (another service, an HTTP status) the general message, never its raw text', () => {
    expect(problemKey('user_cancel')).toBe('problem.internal');
    expect(problemKey('ERR_CLIENT_HTTP_502')).toBe('problem.internal');
    expect(problemKey(undefined)).toBe('problem.internal');
  });
});
