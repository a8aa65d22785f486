import { homedir } from 'node:os';
import { join } from 'node:path';

/** Per-user data directory, following each OS's convention; SIGNING_STATION_DATA_DIR overrides it. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SIGNING_STATION_DATA_DIR) return env.SIGNING_STATION_DATA_DIR;
  switch (process.platform) {
    case 'darwin':
      return join(homedir(), 'Library', 'Application Support', 'signing-station');
    case 'win32':
      return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'signing-station');
    default:
      return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'signing-station');
  }
}
