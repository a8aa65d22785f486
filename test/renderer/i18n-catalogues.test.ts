import { describe, expect, it } from 'vitest';
import { catalogues, pickLanguage } from '../../src/renderer/src/i18n/catalogues.js';
import { en } from '../../src/renderer/src/i18n/messages-en.js';

const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!).sort();

describe('the station window’s message catalogues', () => {
  const keys = Object.keys(en).sort();

  for (const [language, messages] of Object.entries(catalogues)) {
    it(`${language}: has every key, no other, each translated with the same placeholders`, () => {
      expect(Object.keys(messages).sort()).toEqual(keys);
      for (const key of keys) {
        const text = messages[key as keyof typeof en];
        expect(text.trim(), `${language} ${key}`).not.toBe('');
        expect(placeholders(text), `${language} ${key}`).toEqual(placeholders(en[key as keyof typeof en]));
      }
    });
  }

  it('translates the words a user reads most, rather than copying English', () => {
    for (const language of ['et', 'lv', 'lt', 'ru'] as const) {
      for (const key of ['nav.sign', 'sign.heading', 'prompt.decline', 'prompt.pin.wrong', 'link.used.title'] as const) {
        expect(catalogues[language][key], `${language} ${key}`).not.toBe(en[key]);
      }
    }
  });

  it('labels each part of a name differently in every language (a full name is not called a given name)', () => {
    for (const [language, messages] of Object.entries(catalogues)) {
      const labels = Object.entries(messages).filter(([key]) => key.startsWith('name.')).map(([, text]) => text);
      expect(new Set(labels).size, language).toBe(labels.length);
    }
  });

  it('picks the saved choice, else the first supported language of the OS/browser list, else English', () => {
    expect(pickLanguage(['de-DE', 'lv-LV', 'en'], null)).toBe('lv');
    expect(pickLanguage(['ru'], 'et')).toBe('et');
    expect(pickLanguage(['ET'], null)).toBe('et');
    expect(pickLanguage(['de-DE', 'fr'], null)).toBe('en');
    expect(pickLanguage([], 'xx')).toBe('en');
  });
});
