import { fetchSaved } from './fetch-saved.js';

/** The browser's download of a file the window saved, handed to the browser under its own name. */
export async function downloadSaved(fileName: string): Promise<void> {
  const url = URL.createObjectURL(await fetchSaved(fileName));
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.click();
  } finally {
    // Revoked after the click has been handled: the download has its own copy by then.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
