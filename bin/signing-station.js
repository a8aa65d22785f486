#!/usr/bin/env node
'use strict';
// The signing-station command: the CLI built into out/cli (CommonJS, so that its files compile with V8's code cache;
// src/cli/launch.ts).
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const codeDir = join(__dirname, '..', 'out', 'cli');
if (!existsSync(join(codeDir, 'main.js'))) {
  console.error('signing-station: not built yet. Run `npm run build` (npm install runs it for you).');
  process.exit(1);
}
require(join(codeDir, 'launch.js')).launch(process.argv, { codeDir, loadMain: () => require(join(codeDir, 'main.js')) });
