import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { OpenedFile } from '../core/ipc/shell-api.js';

/** A file opened with the app travels to the window in one message: the desk's own body limit. */
export const MAX_OPENED_BYTES = 400 * 1024 * 1024;

/**
 * Reads the files the app was asked to open (file association, deep link, second launch) for the window's Sign
 * screen. Paths that are not regular files, are gone, or exceed the limit are skipped: they come from other
 * programs' command lines and links, and one bad path must not stop the others.
 */
export async function readOpenedFiles(paths: readonly string[], maxBytes = MAX_OPENED_BYTES): Promise<OpenedFile[]> {
  const files: OpenedFile[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile() || info.size > maxBytes) continue;
    files.push({ name: basename(path), bytes: new Uint8Array(await readFile(path)) });
  }
  return files;
}

/** The newest files in the station's output folder, newest first, for the tray menu. */
export async function recentDocuments(directory: string, count: number): Promise<string[]> {
  const names = await readdir(directory).catch(() => [] as string[]);
  const dated = await Promise.all(
    names.map(async (name) => {
      const info = await stat(join(directory, name)).catch(() => undefined);
      return info?.isFile() ? { path: join(directory, name), time: info.mtimeMs } : undefined;
    }),
  );
  return dated
    .filter((entry) => entry !== undefined)
    .sort((a, b) => b.time - a.time)
    .slice(0, count)
    .map((entry) => entry.path);
}
