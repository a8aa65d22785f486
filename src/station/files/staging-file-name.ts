import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/** `.NAME.<pid>-<random>.partial`: the pid says whether the writer may still be at work (see removeStaleStagingFiles). */
const STAGING_NAME = /^\..+\.(\d+)-[0-9a-f]{12}\.partial$/;

/** Where an atomic write of `target` stages its bytes: beside it (same file system), hidden, named for its writer. */
export function stagingPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}-${randomBytes(6).toString('hex')}.partial`);
}

/** The writer's pid of a staging file's name, or undefined for any other name. */
export function stagingWriterPid(name: string): number | undefined {
  const match = STAGING_NAME.exec(name);
  return match ? Number(match[1]) : undefined;
}
