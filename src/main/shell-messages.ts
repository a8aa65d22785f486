import { pickLanguage } from '../core/i18n/pick-language.js';

/** What the desktop shell says outside the window (notifications, tray), in the window's five languages. */
export interface ShellMessages {
  waiting: string;
  enterPin(requester: string): string;
  confirmInWindow(requester: string): string;
  signed: string;
  openWindow: string;
  openInBrowser: string;
  noDocumentsYet: string;
  quit: string;
  /** The app was started while another station holds its data directory (`serve`, or another start). */
  alreadyRunning(address: string): string;
  /** The title of the OS's folder dialog for the output folder. */
  chooseOutputFolder: string;
}

const catalogues = {
  en: {
    waiting: 'Signing Station is waiting for you',
    enterPin: (requester) => `${requester}: enter your PIN`,
    confirmInWindow: (requester) => `${requester}: confirm in the window`,
    signed: 'Signed',
    openWindow: 'Open Signing Station',
    openInBrowser: 'Open in browser',
    noDocumentsYet: 'No signed documents yet',
    quit: 'Quit',
    alreadyRunning: (address) => `Signing Station is already running at ${address}: its window opens in your browser.`,
    chooseOutputFolder: 'Where should signed files be saved?',
  },
  et: {
    waiting: 'Signing Station ootab sind',
    enterPin: (requester) => `${requester}: sisesta PIN-kood`,
    confirmInWindow: (requester) => `${requester}: kinnita aknas`,
    signed: 'Allkirjastatud',
    openWindow: 'Ava Signing Station',
    openInBrowser: 'Ava brauseris',
    noDocumentsYet: 'Allkirjastatud dokumente veel pole',
    quit: 'Välju',
    alreadyRunning: (address) => `Signing Station juba töötab aadressil ${address}: selle aken avaneb brauseris.`,
    chooseOutputFolder: 'Kuhu allkirjastatud failid salvestada?',
  },
  lv: {
    waiting: 'Signing Station gaida jūs',
    enterPin: (requester) => `${requester}: ievadiet PIN kodu`,
    confirmInWindow: (requester) => `${requester}: apstipriniet logā`,
    signed: 'Parakstīts',
    openWindow: 'Atvērt Signing Station',
    openInBrowser: 'Atvērt pārlūkā',
    noDocumentsYet: 'Vēl nav parakstītu dokumentu',
    quit: 'Iziet',
    alreadyRunning: (address) => `Signing Station jau darbojas adresē ${address}: tās logs atveras pārlūkā.`,
    chooseOutputFolder: 'Kur saglabāt parakstītos failus?',
  },
  lt: {
    waiting: 'Signing Station laukia jūsų',
    enterPin: (requester) => `${requester}: įveskite PIN kodą`,
    confirmInWindow: (requester) => `${requester}: patvirtinkite lange`,
    signed: 'Pasirašyta',
    openWindow: 'Atidaryti Signing Station',
    openInBrowser: 'Atidaryti naršyklėje',
    noDocumentsYet: 'Pasirašytų dokumentų dar nėra',
    quit: 'Išeiti',
    alreadyRunning: (address) => `Signing Station jau veikia adresu ${address}: jos langas atsidaro naršyklėje.`,
    chooseOutputFolder: 'Kur išsaugoti pasirašytus failus?',
  },
  ru: {
    waiting: 'Signing Station ждёт вас',
    enterPin: (requester) => `${requester}: введите PIN-код`,
    confirmInWindow: (requester) => `${requester}: подтвердите в окне`,
    signed: 'Подписано',
    openWindow: 'Открыть Signing Station',
    openInBrowser: 'Открыть в браузере',
    noDocumentsYet: 'Подписанных документов пока нет',
    quit: 'Выйти',
    alreadyRunning: (address) => `Signing Station уже работает по адресу ${address}: её окно откроется в браузере.`,
    chooseOutputFolder: 'Куда сохранять подписанные файлы?',
  },
} satisfies Record<string, ShellMessages>;

/** The messages in the first of the OS's languages the window also speaks (Electron's app.getPreferredSystemLanguages()), else English. */
export function shellMessagesFor(preferred: readonly string[]): ShellMessages {
  return catalogues[pickLanguage(Object.keys(catalogues) as Array<keyof typeof catalogues>, preferred, null, 'en')];
}
