import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readOpenedFiles, recentDocuments } from '../../src/main/opened-files.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'opened-files-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('files opened with the desktop app', () => {
  it('reads regular files for the window, skipping folders, missing paths and files over the limit, and keeps the others', async () => {
    await writeFile(join(dir, 'contract.pdf'), '%PDF-1.7 contract');
    await writeFile(join(dir, 'big.bin'), Buffer.alloc(2048));
    await mkdir(join(dir, 'folder'));
    const files = await readOpenedFiles([join(dir, 'missing.pdf'), join(dir, 'folder'), join(dir, 'big.bin'), join(dir, 'contract.pdf')], 1024);
    expect(files.map((file) => file.name)).toEqual(['contract.pdf']);
    expect(Buffer.from(files[0]!.bytes).toString()).toBe('%PDF-1.7 contract');
  });
});

describe('recent documents for the tray', () => {
  it('lists the newest files of the output folder first, at most the count asked, folders left out', async () => {
    const output = join(dir, 'output');
    await mkdir(join(output, 'a folder'), { recursive: true });
    for (const [index, name] of ['old.pdf', 'newest.asice', 'middle.pdf.tsr'].entries()) {
      await writeFile(join(output, name), name);
      const time = new Date(Date.UTC(2026, 0, 1 + [0, 2, 1][index]!));
      await utimes(join(output, name), time, time);
    }
    expect(await recentDocuments(output, 2)).toEqual([join(output, 'newest.asice'), join(output, 'middle.pdf.tsr')]);
    expect(await recentDocuments(output, 5)).toHaveLength(3);
  });

  it('is empty when the output folder does not exist yet', async () => {
    expect(await recentDocuments(join(dir, 'never-made'), 5)).toEqual([]);
  });
});
