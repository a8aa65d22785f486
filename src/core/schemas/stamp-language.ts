import * as z from 'zod';

/** The languages a visible signature's labels ("Digitally signed by", "Date", "Reason") are written in. */
export const stampLanguageSchema = z.enum(['en', 'et', 'lv', 'lt', 'ru']);
export type StampLanguage = z.infer<typeof stampLanguageSchema>;
