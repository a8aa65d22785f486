import { createContext, useContext, useMemo, useState, type JSX, type ReactNode } from 'react';
import type { MessageKey, Messages } from './messages-en.js';
import { catalogues, pickLanguage, type Language } from './catalogues.js';
import { pseudoMessages } from './pseudo-messages.js';

export { languageNames, languages, type Language } from './catalogues.js';

const STORAGE_KEY = 'station-ui-language';
/** Set by tests only (there is no control for it): the window's words in the pseudo-locale. */
const PSEUDO_KEY = 'station-ui-pseudo-locale';

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

export interface I18n {
  language: Language;
  setLanguage(language: Language): void;
  t: Translate;
  date(iso: string): string;
  dateTime(iso: string): string;
  number(value: number): string;
}

const I18nContext = createContext<I18n | undefined>(undefined);

export function I18nProvider({ children }: { children: ReactNode }): JSX.Element {
  const [language, setLanguageState] = useState<Language>(() => pickLanguage(navigator.languages, localStorage.getItem(STORAGE_KEY)));
  const value = useMemo<I18n>(() => {
    const messages: Messages = localStorage.getItem(PSEUDO_KEY) === 'on' ? pseudoMessages(catalogues[language]) : catalogues[language];
    const dates = new Intl.DateTimeFormat(language, { dateStyle: 'medium' });
    const dateTimes = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'medium' });
    const numbers = new Intl.NumberFormat(language);
    return {
      language,
      setLanguage: (next) => {
        localStorage.setItem(STORAGE_KEY, next);
        setLanguageState(next);
      },
      t: (key, values) => fill(messages[key], values, numbers),
      date: (iso) => dates.format(new Date(iso)),
      dateTime: (iso) => dateTimes.format(new Date(iso)),
      number: (n) => numbers.format(n),
    };
  }, [language]);
  document.documentElement.lang = language;
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}

function fill(template: string, values: Record<string, string | number> | undefined, numbers: Intl.NumberFormat): string {
  if (!values) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? numbers.format(value) : value;
  });
}
