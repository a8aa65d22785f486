import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/**
 * A full garbage collection now. V8 collects when code allocates, not when a process goes idle: the tens of
 * megabytes a large request body leaves behind (its bytes, their text, the parsed strings) would otherwise stay
 * resident until the station is next busy. Node exposes the collector only behind `--expose-gc`, which can be set
 * once the process runs; the function is then read from a fresh context (the flag applies to contexts made after it).
 */
export function collectGarbage(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}
