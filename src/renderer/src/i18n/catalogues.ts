import { en, type Messages } from './messages-en.js';
import { et } from './messages-et.js';
import { lv } from './messages-lv.js';
import { lt } from './messages-lt.js';
import { ru } from './messages-ru.js';
import { pickLanguage as pickAvailableLanguage } from '../../../core/i18n/pick-language.js';

export const catalogues = { en, et, lv, lt, ru } satisfies Record<string, Messages>;
export type Language = keyof typeof catalogues;
export const languages = Object.keys(catalogues) as Language[];
/** Each language named in itself, for the switcher. */
export const languageNames: Record<Language, string> = { en: 'English', et: 'Eesti', lv: 'Latviešu', lt: 'Lietuvių', ru: 'Русский' };

/** The user's choice if they made one here, else the first of the browser's (the OS's) languages we have, else English. */
export function pickLanguage(preferred: readonly string[], stored: string | null): Language {
  return pickAvailableLanguage(languages, preferred, stored, 'en');
}
