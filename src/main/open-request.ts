import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The scheme the desktop app registers: `signing-station://sign?file=/path/to/contract.pdf`. */
export const DEEP_LINK_SCHEME = 'signing-station';

/**
 * The files a launch asks the app to sign: paths given on the command line (the OS's "open with" and file
 * associations pass them so), `file://` URLs, and `signing-station://sign?file=…` deep links. Options (`--…`), the
 * executable and the app's own script are not documents; relative paths are resolved against the launch's working
 * directory. The caller opens only those that are regular files.
 */
export function filesToOpen(argv: readonly string[], workingDirectory: string): string[] {
  const files: string[] = [];
  for (const arg of argv.slice(1)) {
    if (arg.startsWith('-') || arg === '.' || /\.[cm]?js$/.test(arg)) continue;
    if (arg.startsWith(`${DEEP_LINK_SCHEME}:`)) files.push(...filesOfDeepLink(arg));
    else if (arg.startsWith('file:')) files.push(fileURLToPath(arg));
    else files.push(isAbsolute(arg) ? arg : resolve(workingDirectory, arg));
  }
  return files;
}

/** `signing-station://sign?file=/a.pdf&file=/b.txt` → absolute paths; anything else in the link is ignored. */
export function filesOfDeepLink(link: string): string[] {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return [];
  }
  if (url.protocol !== `${DEEP_LINK_SCHEME}:` || url.hostname !== 'sign') return [];
  return url.searchParams.getAll('file').filter((path) => isAbsolute(path));
}
