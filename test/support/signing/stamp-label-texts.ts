/**
 * The visible signature's labels as a reader of each language expects them, written out here (not taken from the
 * station's table) so a test compares the drawn stamp with an independent statement of what it should say.
 */
export const EXPECTED_STAMP_LABELS = {
  en: { signedBy: 'Digitally signed by', date: 'Date:', reason: 'Reason:' },
  et: { signedBy: 'Digitaalselt allkirjastanud', date: 'Kuupäev:', reason: 'Põhjus:' },
  lv: { signedBy: 'Digitāli parakstījis', date: 'Datums:', reason: 'Iemesls:' },
  lt: { signedBy: 'Skaitmeniniu parašu pasirašė', date: 'Data:', reason: 'Priežastis:' },
  ru: { signedBy: 'Подписано электронной подписью:', date: 'Дата:', reason: 'Причина:' },
} as const;

export type ExpectedStampLanguage = keyof typeof EXPECTED_STAMP_LABELS;
export const STAMP_LANGUAGES = Object.keys(EXPECTED_STAMP_LABELS) as ExpectedStampLanguage[];
