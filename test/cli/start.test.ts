import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uiHeaders } from '../support/station/ui-credential.js';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

describe('npm start without the Electron binary', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'start-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('runs the station headless, says why, serves the UI link, and stops cleanly', async () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const child = spawn(process.execPath, ['scripts/start.js', '--port', '0', '--data-dir', dataDir], { cwd: root, env: { ...process.env, DISPLAY: '' } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const lines: string[] = [];
    await new Promise<void>((resolve) =>
      createInterface({ input: child.stdout }).on('line', (line) => {
        lines.push(line);
        if (lines.length === 2) resolve();
      }),
    );
    expect(lines[0]).toMatch(/^listening http:\/\/127\.0\.0\.1:\d+$/);
    expect(stderr).toMatch(/running the station headless/);

    const link = lines[1]!.replace(/^ui /, '');
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const overview = await fetch(new URL('/admin/api/overview', link), { headers: await uiHeaders(link) });
    expect(overview.status).toBe(200);

    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });
});
