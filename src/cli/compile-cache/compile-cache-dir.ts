import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the CLI asks the runtime to keep its compile cache: the user's cache directory by each OS's convention.
 * Not Node's default (a folder in the shared temporary directory): a compile cache is code, and another local user
 * can write there.
 */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(userCacheDir(env), 'signing-station', 'compile-cache');
}

function userCacheDir(env: NodeJS.ProcessEnv): string {
  switch (process.platform) {
    case 'darwin':
      return join(homedir(), 'Library', 'Caches');
    case 'win32':
      return env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local');
    default:
      return env.XDG_CACHE_HOME ?? join(homedir(), '.cache');
  }
}
