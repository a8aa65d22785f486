import * as z from 'zod';
import { stampLanguageSchema } from './stamp-language.js';

const points = z.number().finite().min(0).max(14_400);

/**
 * Where a PDF's visible signature goes: a 1-based page and a box in points measured from the bottom-left corner of
 * that page as a reader displays it (after CropBox and /Rotate), which is what a page preview shows. The signing
 * engine maps it to the page's user space and checks that it lies inside the page and fits the text.
 */
export const visibleSignaturePlacementSchema = z.object({
  page: z.number().int().min(1).max(100_000),
  x: points,
  y: points,
  width: points.positive(),
  height: points.positive(),
  /** The language of the box's labels: the document's signing language; English when not given. */
  language: stampLanguageSchema.optional(),
});
export type VisibleSignaturePlacement = z.infer<typeof visibleSignaturePlacementSchema>;
