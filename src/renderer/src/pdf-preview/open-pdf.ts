import { GlobalWorkerOptions, getDocument, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

/**
 * Opens a picked PDF with pdf.js (Mozilla's renderer; nothing else renders PDF in a page as well). This module and
 * pdf.js are one chunk the Sign screen loads when a PDF is picked, so the window's first paint never waits for them.
 * The worker is an asset of the renderer build, served by the station from its own origin (the UI's CSP allows
 * scripts and workers from 'self' only); eval stays off for the same CSP.
 */
export async function openPdf(file: Blob): Promise<PDFDocumentProxy> {
  GlobalWorkerOptions.workerSrc = workerUrl;
  return getDocument({ data: new Uint8Array(await file.arrayBuffer()), isEvalSupported: false }).promise;
}
