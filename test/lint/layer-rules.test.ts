import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The lint that `npm test` runs must fail on what docs/architecture.md forbids: each case lints a made-up module placed
// in a layer (lintText with a path; nothing is written under src/) and expects the rule and its message.
const eslint = new ESLint({ cwd: process.cwd() });

async function problems(filePath: string, code: string): Promise<Array<{ ruleId: string | null; message: string }>> {
  const [result] = await eslint.lintText(code, { filePath: path.resolve(filePath) });
  return (result?.messages ?? []).map(({ ruleId, message }) => ({ ruleId, message }));
}

describe('layer rules (eslint.config.js)', () => {
  it('accepts the layers as they are', async () => {
    const [result] = await eslint.lintFiles(['src/station/create-station.ts']);
    expect(result?.messages).toEqual([]);
  });

  it.each([
    ['src/core/violation.ts', "import { createStation } from '../station/create-station.js';", 'src/core must not import src/station'],
    ['src/station/violation.ts', "import { main } from '../cli/main.js';", 'src/station must not import src/cli'],
    ['src/renderer/src/violation.ts', "import { createStation } from '../../station/create-station.js';", 'src/renderer must not import src/station'],
    ['src/iframe/violation.ts', "import { createStation } from '../station/create-station.js';", 'src/iframe must not import src/station'],
    ['src/preload/violation.ts', "import { createStation } from '../station/create-station.js';", 'src/preload must not import src/station'],
  ])('%s: %s is refused', async (filePath, code, message) => {
    expect(await problems(filePath, `${code}\nexport const used = [main, createStation];`)).toContainEqual({
      ruleId: 'import-x/no-restricted-paths',
      message: expect.stringContaining(message),
    });
  });

  it('refuses node:* and electron in src/core and electron in src/station', async () => {
    expect(await problems('src/core/violation.ts', "import { readFile } from 'node:fs/promises';\nexport { readFile };")).toContainEqual({
      ruleId: 'no-restricted-imports',
      message: expect.stringContaining('src/core runs in every runtime: no node:* modules'),
    });
    expect(await problems('src/station/violation.ts', "import { app } from 'electron';\nexport { app };")).toContainEqual({
      ruleId: 'no-restricted-imports',
      message: expect.stringContaining('Only src/main and src/preload import electron'),
    });
    expect(await problems('src/main/violation.ts', "import { app } from 'electron';\nexport { app };")).toEqual([]);
  });

  it('refuses the DOM in src/core', async () => {
    expect(await problems('src/core/violation.ts', 'export const title = document.title;')).toContainEqual({
      ruleId: 'no-restricted-globals',
      message: expect.stringContaining('src/core runs in every runtime: no DOM'),
    });
  });
});

describe('import cycles (.dependency-cruiser.cjs)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cycle-'));
    // A cycle made only of type imports, as the station's were: erased at runtime, still a knot to read.
    await writeFile(path.join(dir, 'routes.ts'), "import type { Deps } from './deps.js';\nexport type Routes = (deps: Deps) => void;\n");
    await writeFile(path.join(dir, 'deps.ts'), "import type { Routes } from './routes.js';\nexport interface Deps { routes: Routes }\n");
    await writeFile(path.join(dir, 'leaf.ts'), 'export const leaf = 1;\n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** Runs the cruise `npm run lint` runs; its verdict is the exit code and the rule names it prints. */
  async function cruise(files: string[]): Promise<{ exitCode: number; output: string }> {
    const args = ['--config', '.dependency-cruiser.cjs', '--output-type', 'err', ...files.map((file) => path.join(dir, file))];
    return new Promise((resolve) => {
      execFile('node_modules/.bin/depcruise', args, (error, stdout, stderr) => resolve({ exitCode: typeof error?.code === 'number' ? error.code : 0, output: stdout + stderr }));
    });
  }

  it('finds a cycle of type-only imports', async () => {
    const { exitCode, output } = await cruise(['routes.ts', 'deps.ts']);
    expect(output).toMatch(/no-circular: [^\n]*deps\.ts →\s+[^\n]*routes\.ts/);
    expect(exitCode).not.toBe(0);
  });

  it('passes modules without a cycle', async () => {
    expect(await cruise(['leaf.ts'])).toMatchObject({ exitCode: 0, output: expect.stringContaining('no dependency violations found') });
  });
});
