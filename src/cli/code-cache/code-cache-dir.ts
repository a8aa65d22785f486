import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the CLI keeps V8's code cache for one command: the user's cache directory by each OS's convention, one
 * folder per V8 version and architecture (V8 refuses another's cache anyway) and per command (each command's
 * start compiles other functions of the shared files). SIGNING_STATION_CODE_CACHE names another base directory,
 * or turns the cache off with `off`.
 */
export function codeCacheDir(command: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const base = env.SIGNING_STATION_CODE_CACHE === 'off' ? undefined : (env.SIGNING_STATION_CODE_CACHE ?? join(userCacheDir(env), 'signing-station', 'code-cache'));
  return base && join(base, `v8-${process.versions.v8}-${process.arch}`, command);
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
