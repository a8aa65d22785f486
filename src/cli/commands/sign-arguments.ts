import { stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import type { SignatureFormat } from '../../station/signing/signature-engine.js';
import type { SignCommandOptions } from './signer-resolver.js';
import { httpTimestampClient } from './sign-timestamp-client.js';

/** Checks what can be checked before a key is opened or a PIN asked: nothing is spent on a doomed run. */
export async function checkSignArguments(file: string, options: SignCommandOptions, format: SignatureFormat): Promise<void> {
  if (!options.timestamp && options.tsa) throw new InvalidInputError('--tsa and --no-timestamp exclude each other: give one.');
  if (!options.timestamp && options.baseline !== undefined && options.baseline !== 'B-B') {
    throw new InvalidInputError(`--no-timestamp is the B-B level; --baseline ${options.baseline} needs a timestamp.`, { baseline: ['needs a timestamp'] });
  }
  if (options.tsa) httpTimestampClient(options.tsa);
  if (options.visible && format !== 'pades') throw new InvalidInputError('--visible applies to PDF (pades) signatures only.');
  if ((options.page !== undefined || options.rect !== undefined) && !options.visible) {
    throw new InvalidInputError('--page and --rect place the visible signature: add --visible.', { visible: ['required with --page or --rect'] });
  }
  if (options.stampLanguage !== undefined && !options.visible) {
    throw new InvalidInputError('--stamp-language is the visible signature’s language: add --visible.', { visible: ['required with --stamp-language'] });
  }
  const input = await stat(file).catch(() => undefined);
  if (!input) throw new InvalidInputError(`${file} does not exist: name the document to sign.`, { file: ['not found'] });
  if (!input.isFile()) throw new InvalidInputError(`${file} is not a file: name the document to sign.`, { file: ['not a file'] });
  if (options.out !== undefined) await checkOutput(options.out, options.force ?? false);
}

async function checkOutput(out: string, force: boolean): Promise<void> {
  const folder = await stat(dirname(out)).catch(() => undefined);
  if (!folder?.isDirectory()) {
    throw new InvalidInputError(`--out ${out}: the folder ${dirname(out)} does not exist; create it or choose another --out.`, { out: ['folder missing'] });
  }
  const existing = await stat(out).catch(() => undefined);
  if (existing?.isDirectory()) throw new InvalidInputError(`--out ${out} is a folder; give the signed file's name.`, { out: ['a folder'] });
  if (existing && !force) {
    throw new InvalidInputError(`Refusing to overwrite ${out}: choose another --out, or add --force to replace it (the input itself is never replaced).`, {
      out: ['exists'],
    });
  }
}

/**
 * Where the signed document goes when --out is not given: beside the input, `name.signed.pdf` for PAdES,
 * `name.asice` for a new container (`name.signed.asice` when co-signing one). It is only the first choice: the
 * signing takes `name.signed (2).pdf` and so on when it is taken once the document is written (numberWhenTaken), so
 * nothing holds a name while a run works and two runs at once take two names.
 */
export function defaultOutputPath(file: string, format: SignatureFormat): string {
  const extension = extname(file);
  const stem = join(dirname(file), basename(file, extension));
  if (format === 'pades') return `${stem}.signed${extension || '.pdf'}`;
  return extension.toLowerCase() === '.asice' ? `${stem}.signed${extension}` : `${stem}.asice`;
}
