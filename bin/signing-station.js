#!/usr/bin/env node
import { existsSync } from 'node:fs';

const entry = new URL('../out/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('signing-station: not built yet. Run `npm run build` (npm install runs it for you).');
  process.exit(1);
}
const { main } = await import(entry.href);
process.exit(await main(process.argv));
