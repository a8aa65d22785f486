/** Reads all of stdin as bytes (secrets and PINs come this way, never from argv where `ps` shows them). */
export async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** One line from stdin without its line ending. */
export async function readStdinLine(): Promise<Buffer> {
  const all = await readStdin();
  const end = all.indexOf(0x0a);
  const line = end === -1 ? all : all.subarray(0, end);
  const trimmed = line.length > 0 && line[line.length - 1] === 0x0d ? line.subarray(0, -1) : line;
  const copy = Buffer.from(trimmed);
  all.fill(0);
  return copy;
}
