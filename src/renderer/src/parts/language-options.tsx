import type { JSX } from 'react';
import { languageNames, languages } from '../i18n/i18n.js';

/** The five languages as a list's options, each named in itself (so not translated). */
export function LanguageOptions(): JSX.Element {
  return (
    <>
      {languages.map((code) => (
        <option key={code} value={code} lang={code} translate="no">
          {languageNames[code]}
        </option>
      ))}
    </>
  );
}
