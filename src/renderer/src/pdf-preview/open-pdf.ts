import { GlobalWorkerOptions, getDocument, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

/**
 * Opens a picked PDF with pdf.js (Mozilla's renderer; nothing else renders PDF in a page as well). This module and
 * pdf.js are one chunk the Sign screen loads when a PDF is picked, so the window's first paint never waits for them.
 * The worker is an asset of the renderer build, served by the station from its own origin (the UI's CSP allows
 * scripts and workers from 'self' only); eval stays off for the same CSP. pdf.js's data files (predefined CMaps
 * for CJK text, standard fonts) are in the build too, fetched from the same origin by name when a document needs
 * them (scripts/pdfjs-data-vite.js).
 */
export async function openPdf(file: Blob): Promise<PDFDocumentProxy> {
  GlobalWorkerOptions.workerSrc = workerUrl;
  const data = new URL('pdfjs/', document.baseURI);
  return getDocument({
    data: new Uint8Array(await file.arrayBuffer()),
    isEvalSupported: false,
    cMapUrl: new URL('cmaps/', data).href,
    cMapPacked: true,
    standardFontDataUrl: new URL('standard_fonts/', data).href,
  }).promise;
}
