const ENTER = new Set([0x0a, 0x0d]);
const ERASE = new Set([0x7f, 0x08]);
const CTRL_C = 0x03;
const CTRL_D = 0x04;
const CTRL_U = 0x15;
const MAX_BYTES = 256;

/**
 * Reads one line from a terminal with echo off (raw mode), into a fixed buffer that is zeroed: the typed PIN is
 * never drawn, never a JS string, and gone from this module once returned. Backspace and Ctrl-U edit, Enter ends,
 * Ctrl-C or Ctrl-D cancel (null). Node's readline would echo, and hold the line as a string. `showPrompt` runs once
 * echo is off: a person who types as soon as the prompt appears never sees the PIN.
 */
export function readHiddenLine(input: NodeJS.ReadStream, showPrompt: () => void): Promise<Buffer | null> {
  const buffer = Buffer.alloc(MAX_BYTES);
  let length = 0;
  return new Promise((resolve, reject) => {
    const finish = (result: Buffer | null): void => {
      input.off('data', onData).off('error', onError);
      input.setRawMode(false);
      input.pause();
      buffer.fill(0);
      resolve(result);
    };
    const consume = (byte: number): 'line' | 'cancel' | undefined => {
      if (ENTER.has(byte)) return 'line';
      if (byte === CTRL_C || byte === CTRL_D) return 'cancel';
      if (ERASE.has(byte)) length = Math.max(0, length - 1);
      else if (byte === CTRL_U) length = 0;
      else if (byte >= 0x20 && length < MAX_BYTES) buffer[length++] = byte;
      return undefined;
    };
    const onData = (chunk: Buffer): void => {
      let outcome: 'line' | 'cancel' | undefined;
      for (const byte of chunk) if ((outcome = consume(byte))) break;
      chunk.fill(0);
      if (outcome === 'line') finish(Buffer.from(buffer.subarray(0, length)));
      else if (outcome === 'cancel') finish(null);
    };
    const onError = (error: Error): void => {
      input.off('data', onData);
      input.setRawMode(false);
      buffer.fill(0);
      reject(error);
    };
    input.setRawMode(true);
    showPrompt();
    input.on('data', onData).on('error', onError);
    input.resume();
  });
}
