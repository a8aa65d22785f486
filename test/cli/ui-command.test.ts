import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/station/run-cli.js';
import { startTestStation, type TestStation } from '../support/station/test-station.js';
import { uiHeaders } from '../support/station/ui-credential.js';

describe('signing-station ui', () => {
  let station: TestStation;
  let empty: string;

  beforeAll(async () => {
    station = await startTestStation({ pcsc: { enabled: false, atrMap: [] } });
    empty = await mkdtemp(join(tmpdir(), 'no-station-'));
  });
  afterAll(async () => {
    await station?.dispose();
    await rm(empty, { recursive: true, force: true });
  });

  it('prints a new one-time link of the running station, without a restart, each time a different one', async () => {
    const first = await runCli(['ui', '--data-dir', station.dataDir]);
    expect(first.code, first.stderr).toBe(0);
    const url = first.stdout.trim();
    expect(url).toMatch(new RegExp(`^${station.baseUrl}/ui/#launch=[A-Za-z0-9_-]{43}$`));
    expect((await uiHeaders(url)).authorization).toMatch(/^Bearer /);
    await expect(uiHeaders(url)).rejects.toThrow(/401/);
    const second = await runCli(['ui', '--data-dir', station.dataDir]);
    expect(second.stdout.trim()).not.toBe(url);
  });

  it('says how to start a station when none runs on that data directory', async () => {
    const result = await runCli(['ui', '--data-dir', empty]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('signing-station serve');
    expect(result.stderr).toContain('ERR_UI_STATION_NOT_RUNNING');
  });

  it('answers its bare address with a page saying how to open the window, not JSON', async () => {
    const response = await fetch(`${station.baseUrl}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(await response.text()).toContain('signing-station ui');
  });
});
