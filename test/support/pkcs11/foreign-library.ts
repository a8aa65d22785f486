// A shared library that is not the module the user trusted: its constructor appends one byte to a marker file,
// so a test counts how often it ran inside the station (dlopen runs a constructor before anything is looked up).
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ForeignLibrary {
  path: string;
  /** How many times its constructor ran. */
  loads(): Promise<number>;
}

export async function buildForeignLibrary(dir: string, name = 'libforeign.so'): Promise<ForeignLibrary> {
  const marker = join(dir, `${name}.loaded`);
  const source = join(dir, `${name}.c`);
  await writeFile(
    source,
    `#include <fcntl.h>
#include <unistd.h>
__attribute__((constructor)) static void mark(void) {
  int fd = open(${JSON.stringify(marker)}, O_WRONLY | O_CREAT | O_APPEND, 0600);
  if (fd >= 0) { (void)write(fd, "x", 1); close(fd); }
}
`,
  );
  const path = join(dir, name);
  await run('cc', ['-shared', '-fPIC', '-o', path, source]);
  return { path, loads: async () => (await readFile(marker).catch(() => Buffer.alloc(0))).length };
}

/** Builds a program that swaps two paths with renameat2(RENAME_EXCHANGE) in a loop until it is killed. */
export async function buildPathSwapper(dir: string): Promise<string> {
  const source = join(dir, 'swap.c');
  await writeFile(
    source,
    `#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
int main(int argc, char **argv) {
  if (argc != 3) return 2;
  for (;;) if (renameat2(AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE) != 0) { perror("renameat2"); return 1; }
}
`,
  );
  const path = join(dir, 'swap');
  await run('cc', ['-O2', '-o', path, source]);
  return path;
}
