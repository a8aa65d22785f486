import { join } from 'node:path';
import { writeFileAtomic } from '../files/write-file-atomic.js';

const LAUNCH_PAGE = 'open-ui.html';

/**
 * Writes a one-time UI link into a page that forwards the browser to it, in the data directory (0700) as a 0600
 * file, and returns the page's path. A browser is opened with this file, never with the link: a program's command
 * line and environment are readable by every local user (/proc/PID/cmdline), while this file is the user's alone.
 * Notebook servers open their browsers the same way for the same reason.
 */
export async function writeLaunchPage(dataDir: string, uiUrl: string): Promise<string> {
  const path = join(dataDir, LAUNCH_PAGE);
  const href = escapeAttribute(uiUrl);
  const page = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><meta http-equiv="refresh" content="0;url=${href}"><title>Signing Station</title></head>
<body><p><a href="${href}">Open Signing Station</a></p></body></html>
`;
  await writeFileAtomic(path, page, { mode: 0o600, durable: false });
  return path;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
