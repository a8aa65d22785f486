import { pickLanguage } from '../core/i18n/pick-language.js';

// A frame's title is its accessible name: screen readers announce it when focus enters (WCAG 4.1.2), so it is in
// the page's language (the client's `language` setting), as the station window's languages have it.
const TITLES = {
  en: 'Signing helper: certificates and signing on this computer',
  et: 'Allkirjastamise abiline: sertifikaadid ja allkirjastamine selles arvutis',
  lt: 'Pasirašymo pagalbininkas: sertifikatai ir pasirašymas šiame kompiuteryje',
  lv: 'Parakstīšanas palīgs: sertifikāti un parakstīšana šajā datorā',
  ru: 'Помощник подписи: сертификаты и подписание на этом компьютере',
} as const;

/** The helper frame's title in `language` (a tag such as "et" or "et-EE"); English for any the station lacks. */
export function frameTitle(language: string | undefined): string {
  return TITLES[pickLanguage(Object.keys(TITLES) as (keyof typeof TITLES)[], language ? [language] : [], null, 'en')];
}
