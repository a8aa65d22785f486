import { describe, expect, it } from 'vitest';
import { shellMessagesFor } from '../../src/main/shell-messages.js';
import { languages } from '../../src/renderer/src/i18n/catalogues.js';

describe('what the desktop shell says outside the window', () => {
  it('speaks each of the window’s languages, chosen from the OS’s preferred languages by base language', () => {
    const english = shellMessagesFor(['en-US']);
    for (const language of languages) {
      const messages = shellMessagesFor([`${language}-XX`]);
      expect(Object.keys(messages).sort()).toEqual(Object.keys(english).sort());
      if (language !== 'en') expect(messages.waiting, language).not.toBe(english.waiting);
    }
    expect(shellMessagesFor(['fi-FI', 'et-EE']).quit).toBe('Välju');
    expect(shellMessagesFor(['ru']).enterPin('https://shop.example')).toBe('https://shop.example: введите PIN-код');
  });

  it('falls back to English for a language the window does not speak, or none', () => {
    expect(shellMessagesFor(['fi-FI']).signed).toBe('Signed');
    expect(shellMessagesFor([]).signed).toBe('Signed');
  });
});
