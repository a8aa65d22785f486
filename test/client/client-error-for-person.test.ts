import { describe, expect, it } from 'vitest';
import { ClientError } from '../../src/client/client-error.js';
import { passedOn } from '../../src/core/errors/browser-error-codes.js';

const failure = (code: string, serviceMessage?: string) =>
  new ClientError(passedOn(code), `technical detail of ${code}`, serviceMessage === undefined ? {} : { answer: { status: 'error', message: serviceMessage } });

// The table of failures the page's person sees: isCancel only for a cancel or decline, a userMessage they can act
// on in the client's language, and the technical detail kept apart in `message`.
describe('ClientError.forPerson', () => {
  it.each([
    ['ERR_SIGNING_DECLINED', 'The signer declined in the station’s consent prompt.', true, 'Cancelled. Nothing was signed or shared.'],
    ['ERR_TOKEN_USER_CANCELLED', 'user_cancel', true, 'Cancelled. Nothing was signed or shared.'],
    ['ERR_SIGNING_REQUESTER_GONE', undefined, true, 'Cancelled. Nothing was signed or shared.'],
    ['ERR_SIGNING_USER_REFUSED', 'The user refused in the Smart-ID app.', true, 'The user refused in the Smart-ID app.'],
    ['ERR_TOKEN_REMOVED', 'integ-token removed', false, 'Your ID card or token is not connected. Insert it and try again.'],
    ['ERR_IFRAME_NO_CERTIFICATE', undefined, false, 'Your ID card or token is not connected. Insert it and try again.'],
    ['ERR_TOKEN_PIN_LOCKED', 'CKR_PIN_LOCKED', false, 'The PIN is blocked after too many wrong tries. Unblock it with your PUK code, then try again.'],
    ['ERR_TOKEN_UNAVAILABLE', 'integ-token failed: CKR_GENERAL_ERROR', false, 'Your ID card or token could not sign. Remove it, insert it again and try again.'],
    ['ERR_CLIENT_ORIGIN_NOT_REGISTERED', undefined, false, 'This site may not use Signing Station on this computer. Contact the site’s support.'],
    ['ERR_CLIENT_HELPER_UNREACHABLE', undefined, false, 'Signing Station is not answering. Check that it is running on this computer, then try again.'],
    ['ERR_SESSION_EXPIRED', 'The signing session has expired.', false, 'The signing session has expired.'],
    ['ERR_CLIENT_FAILED', undefined, false, 'Something went wrong. Try again.'],
  ])('%s (service said %j): isCancel %s, userMessage %j', (code, serviceMessage, isCancel, userMessage) => {
    const forPerson = failure(code, serviceMessage).forPerson('en');
    expect(forPerson).toMatchObject({ code, isCancel, userMessage, message: `technical detail of ${code}` });
  });

  it('speaks the client’s language (a regional tag too), English for one it lacks', () => {
    expect(failure('ERR_TOKEN_PIN_LOCKED').forPerson('lt-LT').userMessage).toBe('PIN kodas užblokuotas po per daug klaidingų bandymų. Atblokuokite jį PUK kodu ir bandykite dar kartą.');
    expect(failure('ERR_CLIENT_HELPER_BLOCKED').forPerson('ru').userMessage).toMatch(/^Браузер не разрешает/);
    expect(failure('ERR_CLIENT_TIMEOUT').forPerson('fi').userMessage).toBe('This took too long. Try again.');
  });

  it('keeps the service’s answer for the page’s code', () => {
    expect(failure('ERR_SESSION_EXPIRED', 'The signing session has expired.').forPerson('et').response).toEqual({ data: { status: 'error', message: 'The signing session has expired.' } });
  });

  it.each([
    [{ wrong: true, retriesLeft: 1, countLow: true, finalTry: true }, 'lt', 'Atšaukta po neteisingo PIN kodo. Niekas nepasirašyta. Liko bandymų, kol PIN bus užblokuotas: 1.'],
    [{ wrong: true, countLow: true, finalTry: false }, 'et', 'Katkestatud pärast valet PIN-i. Midagi ei allkirjastatud. Enne PIN-i blokeerimist on jäänud vähe katseid.'],
    [{ wrong: true, countLow: false, finalTry: false }, 'en', 'Cancelled after a wrong PIN. Nothing was signed.'],
  ])('a cancel after a wrong PIN (%j) says so in %s, keeps isCancel and the details', (pin, language, userMessage) => {
    const answer = { status: 'error', code: 'ERR_TOKEN_USER_CANCELLED', message: 'user_cancel', result: 'user_cancel', details: { pin } };
    const forPerson = new ClientError(passedOn('ERR_TOKEN_USER_CANCELLED'), 'user_cancel', { isCancel: true, answer }).forPerson(language);
    expect(forPerson).toMatchObject({ isCancel: true, userMessage, details: { pin } });
  });
});
