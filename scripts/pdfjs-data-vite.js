import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Where the renderer build holds pdf.js's data files; open-pdf.ts gives pdf.js the same folders. */
const PDFJS_DATA_DIR = 'pdfjs';

/**
 * A Vite plugin for the renderer build that copies pdf.js's run-time data files into it, unhashed: pdf.js fetches
 * them by name from a base URL when a document needs them. The predefined CMaps (cmaps/) map the text of CJK fonts
 * that are not embedded, without which pdf.js draws none of it; the standard fonts (standard_fonts/) stand in for
 * base fonts that are not embedded. Their licences travel with them.
 * @returns {import('vite').Plugin}
 */
export function pdfjsDataVite() {
  const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  return {
    name: 'pdfjs-data',
    apply: 'build',
    generateBundle() {
      for (const folder of ['cmaps', 'standard_fonts']) {
        for (const name of readdirSync(join(root, folder))) {
          this.emitFile({ type: 'asset', fileName: `${PDFJS_DATA_DIR}/${folder}/${name}`, source: readFileSync(join(root, folder, name)) });
        }
      }
    },
  };
}
