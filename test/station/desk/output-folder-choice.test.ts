import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { chown, mkdir, mkdtemp, readdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { DeskSavedFile } from '../../../src/core/schemas/desk-api.js';
import type { OutputFolder } from '../../../src/core/schemas/output-folder.js';
import { startTestStation, type TestStation } from '../../support/station/test-station.js';
import { uiHeaders } from '../../support/station/ui-credential.js';

const run = promisify(execFile);

describe('the output folder the user chooses for the window', () => {
  let scratch: string;
  let dataDir: string;
  let station: TestStation;
  let ui: { authorization: string; origin: string };
  let readOnly: string;

  beforeAll(async () => {
    scratch = await realpath(await mkdtemp(join(tmpdir(), 'output-folder-')));
    dataDir = join(scratch, 'data');
    station = await startTestStation({ dataDir });
    ui = await uiHeaders(station.uiUrl());
    // A read-only medium: the one folder even root cannot write in (the tests run as root of their namespace).
    readOnly = join(scratch, 'read-only');
    await mkdir(readOnly);
    await run('mount', ['-t', 'tmpfs', '-o', 'ro,mode=755', 'tmpfs', readOnly]);
  });

  afterAll(async () => {
    await station?.dispose();
    await run('umount', [readOnly]).catch(() => undefined);
    await rm(scratch, { recursive: true, force: true });
  });

  const choose = async (path: unknown, headers: Record<string, string> = ui): Promise<{ status: number; body: OutputFolder & { code?: string } }> => {
    const response = await fetch(`${station.baseUrl}/admin/api/desk/output-folder`, { method: 'PUT', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ path }) });
    return { status: response.status, body: (await response.json()) as OutputFolder & { code?: string } };
  };

  /** A folder this user does not own: chowned to nobody, or where that is not allowed (a user namespace), `/`. */
  async function anotherUsersFolder(): Promise<string> {
    const folder = join(scratch, 'nobody');
    await mkdir(folder);
    return chown(folder, 65534, 65534).then(
      () => folder,
      () => '/',
    );
  }

  it('saves the next result in the chosen folder, tells the window, and keeps the choice across a restart', async () => {
    const before = station.window.outputDir;
    const chosen = join(scratch, 'chosen');
    await mkdir(chosen);
    // Through a link of the user's own: the real folder is what is stored.
    await symlink(chosen, join(scratch, 'link-to-chosen'));
    const answer = await choose(join(scratch, 'link-to-chosen'));
    expect(answer).toEqual({ status: 200, body: { path: chosen } });
    expect(station.window.outputDir).not.toBe(before);
    expect((await station.window.feed.state()).outputDir).toBe(chosen);
    const got = await fetch(`${station.baseUrl}/admin/api/desk/output-folder`, { headers: ui });
    expect(await got.json()).toEqual({ path: chosen });

    const saved = await fetch(`${station.baseUrl}/admin/api/desk/timestamp`, {
      method: 'POST',
      headers: { ...ui, 'content-type': 'application/json' },
      body: JSON.stringify({ fileName: 'minutes.txt', mimeType: 'text/plain', fileContent: Buffer.from('minutes\n').toString('base64') }),
    });
    const file = (await saved.json()) as DeskSavedFile;
    expect(file).toMatchObject({ directory: chosen, fileName: 'minutes.txt.tsr', path: join(chosen, 'minutes.txt.tsr') });
    expect(await readdir(chosen)).toEqual(['minutes.txt.tsr']);

    await station.close();
    station = await startTestStation({ dataDir });
    ui = await uiHeaders(station.uiUrl());
    expect(station.window.outputDir).toBe(chosen);
    expect((await station.window.feed.state()).outputDir).toBe(chosen);
  });

  it('refuses a relative path, a missing folder, a file, a read-only folder and another user’s folder, and keeps the last choice', async () => {
    const kept = station.window.outputDir;
    const file = join(scratch, 'a-file.txt');
    await writeFile(file, 'not a folder');
    const others = await anotherUsersFolder();
    await symlink(others, join(scratch, 'link-to-others'));

    const relative = await choose('Documents/Signed');
    expect(relative.status).toBe(400);
    expect(relative.body.code).toBe('ERR_INPUT_INVALID');
    expect((await choose(join(scratch, 'missing'))).body.code).toBe('ERR_DESK_OUTPUT_NOT_FOUND');
    expect((await choose(file)).body.code).toBe('ERR_DESK_OUTPUT_NOT_DIRECTORY');
    expect((await choose(readOnly)).body.code).toBe('ERR_DESK_OUTPUT_NOT_WRITABLE');
    expect((await choose(others)).body.code).toBe('ERR_DESK_OUTPUT_NOT_OWN');
    expect((await choose(join(scratch, 'link-to-others'))).body.code).toBe('ERR_DESK_OUTPUT_NOT_OWN');
    for (const path of [12, '', 'C:', `${scratch}/\0x`]) expect((await choose(path)).body.code).toBe('ERR_INPUT_INVALID');
    expect(station.window.outputDir).toBe(kept);
  });

  it('is the window’s to change: no UI credential, or another origin, is refused', async () => {
    const folder = join(scratch, 'uninvited');
    await mkdir(folder);
    expect((await choose(folder, { origin: ui.origin })).status).toBe(401);
    expect((await choose(folder, { ...ui, origin: 'https://evil.example' })).status).toBe(403);
    expect(station.window.outputDir).not.toBe(folder);
  });
});
