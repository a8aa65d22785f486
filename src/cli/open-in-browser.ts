import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/**
 * Opens a local file (the launch page) in the user's browser: the program BROWSER names, else the OS's own
 * opener. Only the file's URL goes on the opener's command line, never a secret (see writeLaunchPage). Resolves
 * once the opener runs; it is left running on its own.
 */
export function openInBrowser(file: string): Promise<void> {
  const [command, args] = opener();
  const child = spawn(command, [...args, pathToFileURL(file).href], { stdio: 'ignore', detached: true });
  return new Promise((resolve, reject) => {
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
    child.once('error', reject);
  });
}

function opener(): [string, string[]] {
  if (process.env.BROWSER) return [process.env.BROWSER, []];
  if (process.platform === 'darwin') return ['open', []];
  if (process.platform === 'win32') return ['cmd', ['/c', 'start', '""']];
  return ['xdg-open', []];
}
