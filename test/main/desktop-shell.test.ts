import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { shellChannels, type OpenedFile } from '../../src/core/ipc/shell-api.js';
import { startTestStation, type TestStation } from '../support/station/test-station.js';

// The Electron binary cannot be installed on these machines: the one stand-in in the suite. It records what the
// shell asks of Electron (tray menus, notifications, protocol registration, app events); everything behind it is the
// real station and real files.
const electron = vi.hoisted(() => {
  const handlers = new Map<string, (...args: unknown[]) => void>();
  const menus: Array<Array<{ label?: string; enabled?: boolean; click?: () => void }>> = [];
  /** What the shell asked the OS to open (a path or a URL): another user can read it on the opener's command line. */
  const opened: string[] = [];
  const notifications: Array<{ title: string; body: string }> = [];
  /** The main-process side of the window's IPC calls, by channel. */
  const ipc = new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>();
  const shown: string[] = [];
  const dialogs: Array<{ title?: string; defaultPath?: string; properties?: string[] }> = [];
  let dialogAnswer = { canceled: true, filePaths: [] as string[] };
  return {
    handlers,
    ipc,
    shown,
    dialogs,
    answerDialog: (answer: { canceled: boolean; filePaths: string[] }) => (dialogAnswer = answer),
    menus,
    notifications,
    opened,
    protocols: [] as string[],
    module: {
      app: {
        on: (event: string, handler: (...args: unknown[]) => void) => handlers.set(event, handler),
        setAsDefaultProtocolClient: (scheme: string) => electron.protocols.push(scheme),
        getPreferredSystemLanguages: () => ['et-EE'],
        quit: () => undefined,
      },
      Tray: class {
        setToolTip(): void {}
        setContextMenu(menu: Array<{ label?: string; enabled?: boolean; click?: () => void }>): void {
          menus.push(menu);
        }
      },
      Menu: { buildFromTemplate: (template: unknown) => template },
      Notification: class {
        static isSupported(): boolean {
          return true;
        }
        constructor(readonly options: { title: string; body: string }) {}
        on(): void {}
        show(): void {
          notifications.push(this.options);
        }
      },
      nativeImage: { createFromPath: () => ({}) },
      shell: {
        openExternal: (url: string) => opened.push(url),
        openPath: async (path: string) => {
          opened.push(path);
          // What the OS answers for a type no app opens.
          return path.endsWith('.unknown') ? 'No application is registered as handling this file' : '';
        },
        showItemInFolder: (path: string) => shown.push(path),
      },
      ipcMain: { handle: (channel: string, handler: (event: unknown, ...args: unknown[]) => Promise<unknown>) => ipc.set(channel, handler) },
      dialog: {
        showOpenDialog: async (...args: unknown[]) => {
          dialogs.push(args.at(-1) as (typeof dialogs)[number]);
          return dialogAnswer;
        },
      },
    },
  };
});
vi.mock('electron', () => electron.module);

const { installDesktopShell } = await import('../../src/main/desktop-shell.js');

describe('the desktop shell around the station (Electron stood in for)', () => {
  let station: TestStation;
  let dir: string;
  const sent: OpenedFile[][] = [];
  let shown = 0;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'desktop-shell-'));
    station = await startTestStation();
    const window = { webContents: { isLoading: () => false, once: () => undefined, send: (channel: string, files: OpenedFile[]) => channel === shellChannels.openFiles && sent.push(files) } };
    installDesktopShell({ station, showWindow: () => shown++, window: () => window as never });
  });
  afterAll(async () => {
    await station?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('registers the deep-link scheme and fills the tray menu in the OS’s language', async () => {
    expect(electron.protocols).toEqual(['signing-station']);
    await expect.poll(() => electron.menus.length).toBeGreaterThan(0);
    const labels = electron.menus.at(-1)!.map((item) => item.label);
    expect([...labels.slice(0, 3), ...labels.slice(-2)]).toEqual(['Ava Signing Station', 'Ava brauseris', undefined, undefined, 'Välju']);
    // Between the separators: the newest saved documents (other tests of this run save there too), or the word that
    // there are none yet.
    const recent = labels.slice(3, -2);
    const saved = await readdir(station.window.outputDir).catch(() => [] as string[]);
    if (saved.length === 0) expect(recent).toEqual(['Allkirjastatud dokumente veel pole']);
    else for (const label of recent) expect(saved).toContain(label);
  });

  it('opens the browser from the tray through the launch page, never with the one-time link itself', async () => {
    await expect.poll(() => electron.menus.length).toBeGreaterThan(0);
    electron.menus.at(-1)!.find((item) => item.label === 'Ava brauseris')!.click!();
    await expect.poll(() => electron.opened.length).toBe(1);
    const [target] = electron.opened;
    expect(target).toBe(join(station.dataDir, 'open-ui.html'));
    expect((await stat(target!)).mode & 0o777).toBe(0o600);
    expect(await readFile(target!, 'utf8')).toContain(`${station.baseUrl}/ui/#launch=`);
  });

  it('hands a file opened with the app, or named in a deep link, to the window; a missing one is skipped', async () => {
    const pdf = join(dir, 'contract.pdf');
    await writeFile(pdf, '%PDF-1.7 opened with the app');
    const before = shown;
    electron.handlers.get('open-file')!({ preventDefault: () => undefined }, pdf);
    await expect.poll(() => sent.length).toBe(1);
    expect(sent[0]!.map((file) => file.name)).toEqual(['contract.pdf']);
    expect(Buffer.from(sent[0]![0]!.bytes).toString()).toBe('%PDF-1.7 opened with the app');
    expect(shown).toBe(before + 1);

    electron.handlers.get('open-url')!({ preventDefault: () => undefined }, `signing-station://sign?file=${encodeURIComponent(join(dir, 'missing.pdf'))}&file=${encodeURIComponent(pdf)}`);
    await expect.poll(() => sent.length).toBe(2);
    expect(sent[1]!.map((file) => file.name)).toEqual(['contract.pdf']);
  });

  it('notifies a PIN the station waits for, in the OS’s language, and brings nothing else up', async () => {
    const seen = electron.notifications.length;
    const asked = station.prompts.askPin({ tokenLabel: 'Desk Token', pinLabel: 'PIN2', finalTry: false, previousAttemptFailed: false, requester: 'https://shop.example' });
    await expect.poll(() => electron.notifications.length).toBe(seen + 1);
    expect(electron.notifications.at(-1)).toEqual({ title: 'Signing Station ootab sind', body: 'https://shop.example: sisesta PIN-kood' });
    station.prompts.answer(station.prompts.pending()[0]!.id, { kind: 'cancel' });
    expect(await asked).toBeNull();
  });

  it('notifies nothing for a change that needs no one (a client registered elsewhere)', async () => {
    const seen = electron.notifications.length;
    // Subscribed after the shell, so called after it with the same state.
    const pushed = new Promise<void>((resolve) => {
      const stop = station.window.feed.subscribe((state) => {
        if (!state.clients.some((client) => client.clientId === 'shell-shop')) return;
        stop();
        resolve();
      });
    });
    await station.data.clients.upsert({ clientId: 'shell-shop', allowedOrigins: ['https://shop.example'] });
    await pushed;
    expect(electron.notifications.length).toBe(seen);
  });

  describe('the window’s reach into the OS for its results', () => {
    const fromWindow = (): { senderFrame: { url: string } } => ({ senderFrame: { url: `${station.baseUrl}/ui/` } });
    const ask = (channel: string, event: unknown, ...args: unknown[]): Promise<{ ok: boolean; value?: unknown; error?: { code: string } }> =>
      electron.ipc.get(channel)!(event, ...args) as Promise<{ ok: boolean; value?: unknown; error?: { code: string } }>;

    it('opens a file the station saved, or shows it in its folder, and nothing outside the output folder', async () => {
      const folder = station.window.outputDir;
      await mkdir(folder, { recursive: true });
      // The output folder is the run's (other test files save and plant files there too): names of this test's own.
      const own = basename(dir);
      const saved = join(folder, `${own}.signed.pdf`);
      await writeFile(saved, '%PDF-1.7 saved by the station');
      const outside = join(dir, 'outside.pdf');
      await writeFile(outside, '%PDF-1.7 not the station’s');
      await symlink(outside, join(folder, `${own}-planted.pdf`));
      await mkdir(join(folder, `${own}-sub`), { recursive: true });
      await writeFile(join(folder, `${own}-sub`, 'deeper.pdf'), '%PDF-1.7 in a subfolder');
      const openedBefore = electron.opened.length;

      expect(await ask(shellChannels.openSavedFile, fromWindow(), { path: saved })).toEqual({ ok: true, value: true });
      expect(electron.opened.slice(openedBefore)).toEqual([saved]);
      expect(await ask(shellChannels.showItemInFolder, fromWindow(), { path: saved })).toEqual({ ok: true, value: true });
      expect(electron.shown).toEqual([saved]);

      for (const path of [outside, join(folder, `${own}-planted.pdf`), join(folder, '..', basename(folder), '..', 'outside.pdf'), join(folder, `${own}-sub`, 'deeper.pdf'), join(folder, `${own}-sub`), join(folder, `${own}-missing.pdf`), `${own}.signed.pdf`]) {
        for (const channel of [shellChannels.openSavedFile, shellChannels.showItemInFolder]) {
          expect(await ask(channel, fromWindow(), { path }), `${channel} ${path}`).toMatchObject({ ok: false, error: { code: 'ERR_DESK_SAVED_NOT_FOUND' } });
        }
      }
      expect(await ask(shellChannels.openSavedFile, { senderFrame: { url: 'https://evil.example/' } }, { path: saved })).toMatchObject({ ok: false, error: { code: 'ERR_UI_SESSION_REQUIRED' } });
      expect(await ask(shellChannels.openSavedFile, fromWindow(), { path: 12 })).toMatchObject({ ok: false, error: { code: 'ERR_INPUT_INVALID' } });
      expect(electron.opened.slice(openedBefore)).toEqual([saved]);
      expect(electron.shown).toEqual([saved]);

      // A type no app on the machine opens: the OS's reason comes back as an error the window words.
      await writeFile(join(folder, `${own}.unknown`), 'data');
      expect(await ask(shellChannels.openSavedFile, fromWindow(), { path: join(folder, `${own}.unknown`) })).toMatchObject({ ok: false, error: { code: 'ERR_DESK_OPEN_FAILED' } });
    });

    it('opens the OS’s folder dialog at the output folder, titled in the OS’s language, for the station’s page only', async () => {
      electron.answerDialog({ canceled: false, filePaths: [dir] });
      expect(await ask(shellChannels.chooseOutputFolder, fromWindow())).toEqual({ ok: true, value: dir });
      expect(electron.dialogs.at(-1)).toEqual({ title: 'Kuhu allkirjastatud failid salvestada?', defaultPath: station.window.outputDir, properties: ['openDirectory', 'createDirectory'] });
      electron.answerDialog({ canceled: true, filePaths: [] });
      expect(await ask(shellChannels.chooseOutputFolder, fromWindow())).toEqual({ ok: true, value: null });
      const asked = electron.dialogs.length;
      expect(await ask(shellChannels.chooseOutputFolder, { senderFrame: { url: 'https://evil.example/' } })).toMatchObject({ ok: false, error: { code: 'ERR_UI_SESSION_REQUIRED' } });
      expect(electron.dialogs.length).toBe(asked);
    });
  });
});
