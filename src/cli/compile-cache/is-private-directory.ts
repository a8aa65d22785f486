import { statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * True when only this user (or root) can change what `dir` holds: `dir` is this user's and writable by nobody
 * else, and no directory above it lets another user rename it away (each is this user's or root's, and writable
 * by others only with the sticky bit, as /tmp is). Where the OS has no uids (Windows), the profile's ACLs decide.
 */
export function isPrivateDirectory(dir: string): boolean {
  if (typeof process.getuid !== 'function') return true;
  const uid = process.getuid();
  try {
    const leaf = statSync(dir);
    if (!leaf.isDirectory() || leaf.uid !== uid || (leaf.mode & 0o022) !== 0) return false;
    for (let parent = dirname(dir), child = dir; parent !== child; child = parent, parent = dirname(parent)) {
      const stats = statSync(parent);
      if (stats.uid !== uid && stats.uid !== 0) return false;
      if ((stats.mode & 0o022) !== 0 && (stats.mode & 0o1000) === 0) return false;
    }
    return true;
  } catch {
    return false;
  }
}
