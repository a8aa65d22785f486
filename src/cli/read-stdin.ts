/** Longer than any PIN, password or API secret; a pipe that sends more is refused rather than buffered. */
const MAX_LINE_BYTES = 4096;

/**
 * The first line of stdin, without its line ending, as soon as the newline arrives: `echo PIN | …` and a person
 * typing then pressing Enter both work without Ctrl-D. Secrets come this way, never from argv where `ps` shows
 * them. Every intermediate buffer is zeroed; the caller zeroes the result.
 */
export function readStdinLine(input: NodeJS.ReadStream = process.stdin): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      input.off('data', onData).off('end', onEnd).off('error', onError);
      input.pause();
    };
    const finish = (): void => {
      stop();
      const all = Buffer.concat(chunks);
      for (const chunk of chunks) chunk.fill(0);
      resolve(firstLineCopy(all));
      all.fill(0);
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.length;
      if (chunk.includes(0x0a) || size > MAX_LINE_BYTES) finish();
    };
    const onEnd = (): void => finish();
    const onError = (error: Error): void => {
      stop();
      reject(error);
    };
    input.on('data', onData).on('end', onEnd).on('error', onError);
    input.resume();
  });
}

function firstLineCopy(all: Buffer): Buffer {
  const end = all.indexOf(0x0a);
  const line = end === -1 ? all.subarray(0, MAX_LINE_BYTES) : all.subarray(0, end);
  return Buffer.from(line.length > 0 && line[line.length - 1] === 0x0d ? line.subarray(0, -1) : line);
}
