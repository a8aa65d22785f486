import { chmod, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The data directory holds the database, wrapped secrets and documents in flight: other users of the machine get
 * nothing. Applied at every start, so a directory made by an older version or loosened by hand is tightened
 * again. POSIX modes only; on Windows the profile directory's ACL already keeps other users out.
 */
export async function restrictToOwner(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  await chmod(dir, 0o700);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await restrictToOwner(path);
    else if (entry.isFile()) await chmod(path, 0o600);
  }
}
