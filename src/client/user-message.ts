import { pickLanguage } from '../core/i18n/pick-language.js';
import type { WrongPin } from '../core/schemas/browser-client-wire.js';

// What `fail`'s `userMessage` tells a person, in the client's `language`: what happened and what to do about it.
// The technical detail (the service's or browser's own words) stays in `message`. A small catalogue inside the
// client: pages must not need the station, which may be the very thing that is missing, to explain a failure.
type Situation = 'cancelled' | 'unreachable' | 'blocked' | 'notRegistered' | 'tokenMissing' | 'tokenFailed' | 'pinLocked' | 'timeout' | 'failed';

const MESSAGES: Record<'en' | 'et' | 'lt' | 'lv' | 'ru', Record<Situation, string>> = {
  en: {
    cancelled: 'Cancelled. Nothing was signed or shared.',
    unreachable: 'Signing Station is not answering. Check that it is running on this computer, then try again.',
    blocked: 'Your browser blocks this site from reaching Signing Station. Allow "access to devices on your local network" for this site (the browser asks, or see its site settings), or ask your administrator, then try again.',
    notRegistered: 'This site may not use Signing Station on this computer. Contact the site’s support.',
    tokenMissing: 'Your ID card or token is not connected. Insert it and try again.',
    tokenFailed: 'Your ID card or token could not sign. Remove it, insert it again and try again.',
    pinLocked: 'The PIN is blocked after too many wrong tries. Unblock it with your PUK code, then try again.',
    timeout: 'This took too long. Try again.',
    failed: 'Something went wrong. Try again.',
  },
  et: {
    cancelled: 'Katkestatud. Midagi ei allkirjastatud ega jagatud.',
    unreachable: 'Signing Station ei vasta. Kontrolli, et see töötab selles arvutis, ja proovi uuesti.',
    blocked: 'Brauser ei luba sellel saidil Signing Stationiga ühendust võtta. Luba saidil juurdepääs kohtvõrgu seadmetele (brauser küsib seda või vaata saidi seadeid) või pöördu administraatori poole ja proovi uuesti.',
    notRegistered: 'See sait ei tohi selles arvutis Signing Stationit kasutada. Pöördu saidi klienditoe poole.',
    tokenMissing: 'ID-kaart või pulk ei ole ühendatud. Sisesta see ja proovi uuesti.',
    tokenFailed: 'ID-kaart või pulk ei saanud allkirjastada. Eemalda see, sisesta uuesti ja proovi uuesti.',
    pinLocked: 'PIN on liiga paljude valede katsete tõttu blokeeritud. Ava see PUK-koodiga ja proovi uuesti.',
    timeout: 'See võttis liiga kaua aega. Proovi uuesti.',
    failed: 'Midagi läks valesti. Proovi uuesti.',
  },
  lt: {
    cancelled: 'Atšaukta. Niekas nepasirašyta ir nepateikta.',
    unreachable: 'Signing Station neatsako. Patikrinkite, ar ji veikia šiame kompiuteryje, ir bandykite dar kartą.',
    blocked: 'Naršyklė neleidžia šiai svetainei pasiekti Signing Station. Leiskite svetainei pasiekti vietinio tinklo įrenginius (naršyklė to paklaus arba žr. svetainės nustatymus) arba kreipkitės į administratorių ir bandykite dar kartą.',
    notRegistered: 'Šiai svetainei neleidžiama naudoti Signing Station šiame kompiuteryje. Kreipkitės į svetainės pagalbos tarnybą.',
    tokenMissing: 'Asmens tapatybės kortelė arba raktas neprijungti. Įdėkite juos ir bandykite dar kartą.',
    tokenFailed: 'Kortelė arba raktas negalėjo pasirašyti. Ištraukite, vėl įdėkite ir bandykite dar kartą.',
    pinLocked: 'PIN kodas užblokuotas po per daug klaidingų bandymų. Atblokuokite jį PUK kodu ir bandykite dar kartą.',
    timeout: 'Tai užtruko per ilgai. Bandykite dar kartą.',
    failed: 'Kažkas nepavyko. Bandykite dar kartą.',
  },
  lv: {
    cancelled: 'Atcelts. Nekas netika parakstīts vai kopīgots.',
    unreachable: 'Signing Station neatbild. Pārbaudiet, vai tā darbojas šajā datorā, un mēģiniet vēlreiz.',
    blocked: 'Pārlūks neļauj šai vietnei sasniegt Signing Station. Atļaujiet vietnei piekļūt lokālā tīkla ierīcēm (pārlūks to jautās, vai skatiet vietnes iestatījumus) vai vērsieties pie administratora, tad mēģiniet vēlreiz.',
    notRegistered: 'Šai vietnei nav atļauts izmantot Signing Station šajā datorā. Sazinieties ar vietnes atbalstu.',
    tokenMissing: 'ID karte vai marķieris nav pievienots. Ievietojiet to un mēģiniet vēlreiz.',
    tokenFailed: 'ID karte vai marķieris nevarēja parakstīt. Izņemiet to, ievietojiet no jauna un mēģiniet vēlreiz.',
    pinLocked: 'PIN ir bloķēts pēc pārāk daudziem nepareiziem mēģinājumiem. Atbloķējiet to ar PUK kodu un mēģiniet vēlreiz.',
    timeout: 'Tas aizņēma pārāk ilgu laiku. Mēģiniet vēlreiz.',
    failed: 'Kaut kas nogāja greizi. Mēģiniet vēlreiz.',
  },
  ru: {
    cancelled: 'Отменено. Ничего не подписано и не передано.',
    unreachable: 'Signing Station не отвечает. Проверьте, что она запущена на этом компьютере, и попробуйте снова.',
    blocked: 'Браузер не разрешает этому сайту обращаться к Signing Station. Разрешите сайту доступ к устройствам в локальной сети (браузер спросит, или см. настройки сайта) или обратитесь к администратору, затем попробуйте снова.',
    notRegistered: 'Этому сайту не разрешено использовать Signing Station на этом компьютере. Обратитесь в поддержку сайта.',
    tokenMissing: 'ID-карта или токен не подключены. Вставьте их и попробуйте снова.',
    tokenFailed: 'ID-карта или токен не смогли подписать. Извлеките, вставьте снова и попробуйте ещё раз.',
    pinLocked: 'PIN заблокирован после слишком многих неверных попыток. Разблокируйте его PUK-кодом и попробуйте снова.',
    timeout: 'Это заняло слишком много времени. Попробуйте снова.',
    failed: 'Что-то пошло не так. Попробуйте снова.',
  },
};

/** A person who cancelled the PIN prompt after a wrong PIN: said so, with the tries the token reported. */
const WRONG_PIN: Record<keyof typeof MESSAGES, { cancelled: string; triesLeft: string; fewLeft: string }> = {
  en: { cancelled: 'Cancelled after a wrong PIN. Nothing was signed.', triesLeft: 'Tries left before the PIN is blocked: {n}.', fewLeft: 'Few tries are left before the PIN is blocked.' },
  et: { cancelled: 'Katkestatud pärast valet PIN-i. Midagi ei allkirjastatud.', triesLeft: 'Katseid enne PIN-i blokeerimist: {n}.', fewLeft: 'Enne PIN-i blokeerimist on jäänud vähe katseid.' },
  lt: { cancelled: 'Atšaukta po neteisingo PIN kodo. Niekas nepasirašyta.', triesLeft: 'Liko bandymų, kol PIN bus užblokuotas: {n}.', fewLeft: 'Liko nedaug bandymų, kol PIN bus užblokuotas.' },
  lv: { cancelled: 'Atcelts pēc nepareiza PIN. Nekas netika parakstīts.', triesLeft: 'Atlikušie mēģinājumi, pirms PIN tiks bloķēts: {n}.', fewLeft: 'Palikuši maz mēģinājumu, pirms PIN tiks bloķēts.' },
  ru: { cancelled: 'Отменено после неверного PIN. Ничего не подписано.', triesLeft: 'Осталось попыток до блокировки PIN: {n}.', fewLeft: 'Осталось мало попыток до блокировки PIN.' },
};

/** A person who cancelled or declined here (or a page that cancelled): nothing more to explain than that. */
const CANCELLED = ['ERR_CLIENT_CANCELLED', 'ERR_TOKEN_USER_CANCELLED', 'ERR_SIGNING_DECLINED', 'ERR_SIGNING_REQUESTER_GONE', 'ERR_IDENTITY_CANCELLED'];
/** A person who refused in a provider's app: `isCancel` too, and the provider's own words say where. */
const REFUSED = ['ERR_SIGNING_USER_REFUSED', 'ERR_IDENTITY_USER_REFUSED', 'user_cancel'];

const SITUATIONS: ReadonlyArray<[Situation, readonly string[]]> = [
  ['cancelled', CANCELLED],
  ['unreachable', ['ERR_CLIENT_HELPER_UNREACHABLE', 'ERR_CLIENT_NETWORK', 'ERR_CLIENT_SCRIPT_UNAVAILABLE', 'ERR_IFRAME_STATION_UNREACHABLE']],
  ['blocked', ['ERR_CLIENT_HELPER_BLOCKED']],
  ['notRegistered', ['ERR_CLIENT_ORIGIN_NOT_REGISTERED', 'ERR_IFRAME_ORIGIN_FORBIDDEN', 'ERR_IFRAME_CLIENT_UNKNOWN', 'ERR_HTTP_ORIGIN_FORBIDDEN']],
  ['tokenMissing', ['ERR_TOKEN_REMOVED', 'ERR_IFRAME_NO_CERTIFICATE', 'ERR_IFRAME_CERTIFICATE_ABSENT']],
  ['pinLocked', ['ERR_TOKEN_PIN_LOCKED']],
  ['timeout', ['ERR_CLIENT_TIMEOUT']],
];

/**
 * What `fail` receives for a person: `isCancel` (true only when the person declined or cancelled, or the page
 * cancelled) and the `userMessage` for `code` in `language` (a tag such as "et" or "et-EE"; English for others).
 * A code the catalogue does not know keeps the service's own `serviceMessage` when it gave one (a provider saying
 * why), else a general one; other token failures get the token's advice. A cancel after a wrong PIN (`pin`)
 * says so, with the tries left when the token told them.
 */
export function userMessage(code: string, language: string | undefined, serviceMessage: string | undefined, pin?: WrongPin): { isCancel: boolean; text: string | undefined } {
  const chosen = pickLanguage(Object.keys(MESSAGES) as (keyof typeof MESSAGES)[], language ? [language] : [], null, 'en');
  const texts = MESSAGES[chosen];
  const known = SITUATIONS.find(([, codes]) => codes.includes(code))?.[0];
  const refused = REFUSED.includes(code) || serviceMessage === 'user_cancel';
  const situation = known ?? fallback(code, serviceMessage);
  if (situation === 'cancelled' && pin?.wrong) return { isCancel: true, text: wrongPinText(WRONG_PIN[chosen], pin) };
  return { isCancel: known === 'cancelled' || refused, text: situation ? texts[situation] : serviceMessage };
}

function wrongPinText(texts: (typeof WRONG_PIN)[keyof typeof WRONG_PIN], pin: WrongPin): string {
  if (typeof pin.retriesLeft === 'number') return `${texts.cancelled} ${texts.triesLeft.replace('{n}', String(pin.retriesLeft))}`;
  return pin.countLow || pin.finalTry ? `${texts.cancelled} ${texts.fewLeft}` : texts.cancelled;
}

/** A code the catalogue does not name: a token's advice, a bare `user_cancel` as cancelled, else the service's own words. */
function fallback(code: string, serviceMessage: string | undefined): Situation | undefined {
  if (code.startsWith('ERR_TOKEN_')) return 'tokenFailed';
  if (serviceMessage === 'user_cancel') return 'cancelled';
  return serviceMessage ? undefined : 'failed';
}
