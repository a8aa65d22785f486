import * as z from 'zod';

const frameDataSchema = z.object({ ticket: z.string(), method: z.string(), allowedOrigins: z.array(z.string()) });
export type FrameData = z.infer<typeof frameDataSchema>;

/** The data block the station wrote into this page when it served it (iframe-page.ts). */
export function readFrameData(): FrameData {
  return frameDataSchema.parse(JSON.parse(document.getElementById('frame-data')?.textContent ?? '{}'));
}
