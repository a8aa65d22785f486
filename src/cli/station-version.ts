import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../station/files/package-root.js';

/** The installed package's version, as `--version` and `/api/health` report it. */
export function stationVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
