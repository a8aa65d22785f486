import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';

const DETACHED_EXTENSIONS = ['.tsr', '.tst', '.p7s', '.p7m'];

/**
 * Which of two files given to `verify` is the timestamp or detached signature and which its data, in either order:
 * by extension (.tsr, .tst, .p7s, .p7m) when exactly one has one, else by content (only the signature is DER, a
 * SEQUENCE: its first byte is 0x30 and the other's is not).
 */
export async function orderVerifyFilePair(first: string, second: string): Promise<{ signed: string; data: string }> {
  const detached = [first, second].map((path) => DETACHED_EXTENSIONS.includes(extname(path).toLowerCase()));
  if (detached[0] !== detached[1]) return detached[0] ? { signed: first, data: second } : { signed: second, data: first };
  const [a, b] = await Promise.all([startsAsDer(first), startsAsDer(second)]);
  if (a !== b) return a ? { signed: first, data: second } : { signed: second, data: first };
  throw new InvalidInputError(`Cannot tell which of ${first} and ${second} is the timestamp or signature: name the data file with --data.`, { file: ['ambiguous pair'] });
}

async function startsAsDer(path: string): Promise<boolean> {
  const file = await open(path, 'r').catch((cause: NodeJS.ErrnoException) => {
    throw new InvalidInputError(`${path} cannot be read (${cause.code ?? cause.message}): name an existing file.`, { file: ['not readable'] });
  });
  try {
    const head = Buffer.alloc(1);
    const { bytesRead } = await file.read(head, 0, 1, 0);
    return bytesRead === 1 && head[0] === 0x30;
  } finally {
    await file.close();
  }
}
