import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';
import { dirname, isAbsolute } from 'node:path';
import { ForbiddenError } from '../../../core/errors/forbidden-error.js';

/**
 * A module file held open: `loadPath` names the very file that was checked, for dlopen. `close` only while
 * nothing was loaded from it: glibc knows a loaded library by the name it was opened under (and some libraries
 * stay loaded after dlclose), so once dlopen has seen `/proc/self/fd/N` that descriptor stays open for the life of
 * the process and the name never comes to mean another file.
 */
export interface OpenModuleFile {
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly loadPath: string;
  close(): void;
}

const READ_CHUNK = 1 << 20;
/** S_ISVTX, which Node's fs.constants leaves out. */
const STICKY = 0o1000;

/**
 * Opens a PKCS#11 library the user or the configuration named, so that what dlopen loads is what was checked:
 * every component of the path must be no symlink, owned by root or this user and writable by no one else (a
 * sticky directory such as /tmp excepted, where others cannot rename what this user owns); the bytes are hashed
 * from a descriptor kept open, and on Linux dlopen is given `/proc/self/fd/N` of that descriptor, so a file
 * swapped in after the check is never the one loaded. `trustedSha256`, when given, must match those bytes.
 */
export function openModuleFile(path: string, trustedSha256?: string): OpenModuleFile {
  assertSafePath(path);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (cause) {
    throw new ForbiddenError('ERR_TOKEN_MODULE_UNSAFE_PATH', `Cannot open the PKCS#11 module ${path}: ${(cause as Error).message}. Nothing was loaded.`);
  }
  try {
    const stats = fstatSync(fd);
    assertSafeEntry(path, stats, 'file');
    const { sha256, sizeBytes } = hashDescriptor(fd);
    if (trustedSha256 !== undefined && sha256 !== trustedSha256) {
      throw new ForbiddenError(
        'ERR_TOKEN_MODULE_NOT_TRUSTED',
        `The PKCS#11 module ${path} changed since you trusted it (SHA-256 ${trustedSha256}, now ${sha256}); it was not loaded. ` +
          'Remove it and add it again to trust the new file.',
      );
    }
    const descriptor = fd;
    return { sha256, sizeBytes, loadPath: process.platform === 'linux' ? `/proc/self/fd/${descriptor}` : path, close: () => closeSync(descriptor) };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

function hashDescriptor(fd: number): { sha256: string; sizeBytes: number } {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(READ_CHUNK);
  let sizeBytes = 0;
  for (let read = readSync(fd, buffer, 0, READ_CHUNK, 0); read > 0; read = readSync(fd, buffer, 0, READ_CHUNK, sizeBytes)) {
    hash.update(buffer.subarray(0, read));
    sizeBytes += read;
  }
  return { sha256: hash.digest('hex'), sizeBytes };
}

/** The file and every directory above it, from the file up to `/`. */
function assertSafePath(path: string): void {
  if (!isAbsolute(path)) throw new ForbiddenError('ERR_TOKEN_MODULE_UNSAFE_PATH', `${path} is not an absolute path. Nothing was loaded.`);
  let current = path;
  let kind: 'file' | 'directory' = 'file';
  for (;;) {
    let stats: Stats;
    try {
      stats = lstatSync(current);
    } catch (cause) {
      throw new ForbiddenError('ERR_TOKEN_MODULE_UNSAFE_PATH', `Cannot read ${current} (on the path of the PKCS#11 module ${path}): ${(cause as Error).message}. Nothing was loaded.`);
    }
    assertSafeEntry(current, stats, kind, path);
    const parent = dirname(current);
    if (parent === current) return;
    current = parent;
    kind = 'directory';
  }
}

function assertSafeEntry(entry: string, stats: Stats, kind: 'file' | 'directory', module = entry): void {
  const refuse = (why: string): never => {
    throw new ForbiddenError(
      'ERR_TOKEN_MODULE_UNSAFE_PATH',
      `${entry} ${why}, so someone else could change which PKCS#11 module ${module} is. Nothing was loaded; ` +
        'give the real file, in a directory only you or root can change.',
    );
  };
  if (stats.isSymbolicLink()) refuse('is a symbolic link');
  if (kind === 'file' ? !stats.isFile() : !stats.isDirectory()) refuse(`is not a ${kind}`);
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== 0 && stats.uid !== uid) refuse(`belongs to another user (uid ${stats.uid})`);
  const sticky = kind === 'directory' && (stats.mode & STICKY) !== 0;
  if ((stats.mode & 0o022) !== 0 && !sticky) refuse('is writable by its group or by everyone');
}
