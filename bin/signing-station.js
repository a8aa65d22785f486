#!/usr/bin/env node
'use strict';
// The signing-station command: the CLI built into out/cli as ES modules, started by its launcher (src/cli/launch.ts),
// which turns on the runtime's compile cache before the CLI's modules load.
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const codeDir = join(__dirname, '..', 'out', 'cli');
if (!existsSync(join(codeDir, 'main.js'))) {
  console.error('signing-station: not built yet. Run `npm run build` (npm install runs it for you).');
  process.exit(1);
}
const load = (file) => import(pathToFileURL(join(codeDir, file)).href);
load('launch.js').then(({ launch }) => launch(process.argv, { loadMain: () => load('main.js') }));
