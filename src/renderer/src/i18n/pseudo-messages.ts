import type { Messages } from './messages-en.js';

const ACCENTED: Record<string, string> = { a: 'à', e: 'é', i: 'î', o: 'ö', u: 'ü', c: 'ç', n: 'ñ', s: 'š', y: 'ý', A: 'Å', E: 'É', I: 'Î', O: 'Ö', U: 'Ü', C: 'Ç', N: 'Ñ', S: 'Š' };

/**
 * A pseudo-locale for tests (never offered to users): every message accented, lengthened by 40 % and wrapped in
 * "[!! … !!]", so text the catalogues do not hold stands out unwrapped, and layouts meet longer languages' words.
 * `{placeholders}` are kept as they are.
 */
export function pseudoMessages(messages: Messages): Messages {
  return Object.fromEntries(Object.entries(messages).map(([key, text]) => [key, pseudo(text)])) as Messages;
}

function pseudo(text: string): string {
  const accented = text.split(/(\{\w+\})/).map((part, index) => (index % 2 === 1 ? part : part.replace(/[A-Za-z]/g, (letter) => ACCENTED[letter] ?? letter))).join('');
  const padding = Math.ceil(text.length * 0.4);
  // Padding in words of up to 7, as a long language's text has them: a line may break between them.
  const words = Array.from({ length: Math.ceil(padding / 8) }, (_, index) => 'ẋ'.repeat(Math.min(7, padding - index * 8)));
  return `[!! ${accented} ${words.join(' ')} !!]`;
}
