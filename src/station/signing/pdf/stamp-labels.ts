import type { StampLanguage } from '../../../core/schemas/stamp-language.js';

interface StampLabels {
  signedBy(signer: string): string;
  date: string;
  reason: string;
}

/** The visible signature's labels in the document's signing language, which the signer chose. */
export const STAMP_LABELS: Readonly<Record<StampLanguage, StampLabels>> = {
  en: { signedBy: (signer) => `Digitally signed by ${signer}`, date: 'Date', reason: 'Reason' },
  et: { signedBy: (signer) => `Digitaalselt allkirjastanud ${signer}`, date: 'Kuupäev', reason: 'Põhjus' },
  lv: { signedBy: (signer) => `Digitāli parakstījis ${signer}`, date: 'Datums', reason: 'Iemesls' },
  lt: { signedBy: (signer) => `Skaitmeniniu parašu pasirašė ${signer}`, date: 'Data', reason: 'Priežastis' },
  ru: { signedBy: (signer) => `Подписано электронной подписью: ${signer}`, date: 'Дата', reason: 'Причина' },
};
