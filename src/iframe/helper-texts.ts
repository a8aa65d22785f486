import { pickLanguage } from '../core/i18n/pick-language.js';

/** What the helper page shows the user, in the station window's languages. Replies to the embedding page stay English: they are for its code. */
export interface HelperTexts {
  /** The page's title: the station's name, as its window names it in each language. */
  title: string;
  ready: string;
  confirmInStation: string;
  notAllowed: string;
  openedAlone: string;
  /** After a request failed because no card or token with the certificate is connected (never left saying "confirm"). */
  tokenMissing: string;
}

const TEXTS = {
  en: {
    title: 'Signing Station',
    ready: 'Signing Station is ready.',
    confirmInStation: 'Confirm in the Signing Station window.',
    notAllowed: 'This web page is not allowed to use Signing Station.',
    openedAlone: 'This page works inside a web page that asks for your signature. Open that web page instead.',
    tokenMissing: 'Your ID card or token is not connected. Insert it, then try again on the web page.',
  },
  et: {
    title: 'Allkirjastusjaam',
    ready: 'Allkirjastusjaam on valmis.',
    confirmInStation: 'Kinnita allkirjastusjaama aknas.',
    notAllowed: 'Sellel veebilehel ei ole lubatud allkirjastusjaama kasutada.',
    openedAlone: 'See leht töötab veebilehe sees, mis küsib sinu allkirja. Ava hoopis see veebileht.',
    tokenMissing: 'ID-kaart või pulk ei ole ühendatud. Sisesta see ja proovi veebilehel uuesti.',
  },
  lt: {
    title: 'Pasirašymo stotis',
    ready: 'Pasirašymo stotis paruošta.',
    confirmInStation: 'Patvirtinkite pasirašymo stoties lange.',
    notAllowed: 'Šiam tinklalapiui neleidžiama naudotis pasirašymo stotimi.',
    openedAlone: 'Šis puslapis veikia tinklalapyje, kuris prašo jūsų parašo. Atidarykite tą tinklalapį.',
    tokenMissing: 'Asmens tapatybės kortelė arba raktas neprijungti. Įdėkite juos ir bandykite dar kartą tinklalapyje.',
  },
  lv: {
    title: 'Parakstīšanas stacija',
    ready: 'Parakstīšanas stacija ir gatava.',
    confirmInStation: 'Apstipriniet parakstīšanas stacijas logā.',
    notAllowed: 'Šai tīmekļa lapai nav atļauts izmantot parakstīšanas staciju.',
    openedAlone: 'Šī lapa darbojas tīmekļa lapā, kas lūdz jūsu parakstu. Atveriet to tīmekļa lapu.',
    tokenMissing: 'ID karte vai marķieris nav pievienots. Ievietojiet to un mēģiniet vēlreiz tīmekļa lapā.',
  },
  ru: {
    title: 'Станция подписи',
    ready: 'Станция подписи готова.',
    confirmInStation: 'Подтвердите в окне станции подписи.',
    notAllowed: 'Этой веб-странице не разрешено использовать станцию подписи.',
    openedAlone: 'Эта страница работает внутри веб-страницы, которая запрашивает вашу подпись. Откройте эту веб-страницу.',
    tokenMissing: 'ID-карта или токен не подключены. Вставьте их и попробуйте снова на веб-странице.',
  },
} as const satisfies Record<string, HelperTexts>;

type HelperLanguage = keyof typeof TEXTS;
const LANGUAGES = Object.keys(TEXTS) as HelperLanguage[];

/** The texts in the first of the browser's languages the helper has, else English. */
export function helperTexts(preferred: readonly string[]): { language: HelperLanguage; texts: HelperTexts } {
  const language = pickLanguage(LANGUAGES, preferred, null, 'en');
  return { language, texts: TEXTS[language] };
}
