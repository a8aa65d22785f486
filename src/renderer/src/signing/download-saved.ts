import { uiCredential } from '../ui-credential.js';

/**
 * The browser's download of a file the window saved: fetched with the UI credential (a plain link could not carry
 * it), then handed to the browser under its own name.
 */
export async function downloadSaved(fileName: string): Promise<void> {
  const response = await fetch(`/admin/api/desk/saved?name=${encodeURIComponent(fileName)}`, { headers: { authorization: `Bearer ${await uiCredential()}` }, credentials: 'omit' });
  if (!response.ok) throw new Error(`The station answered HTTP ${response.status}.`);
  const url = URL.createObjectURL(await response.blob());
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
