import type { PinSource } from '../../station/tokens/token.js';
import { TokenError } from '../../station/tokens/token-errors.js';
import { readStdinLine } from '../read-stdin.js';
import { readHiddenLine } from './read-hidden-line.js';
import type { ProgressReporter } from '../progress/progress-reporter.js';

export interface CliPinOptions {
  /** `--pin-stdin`: the first line of stdin is the PIN (scripts, pipes). */
  pinStdin: boolean;
  /** Shown in the prompt: which token wants the PIN. */
  tokenLabel: string;
  /** Reads the piped PIN (default: the first line of stdin). */
  readPiped?: () => Promise<Buffer>;
  /** Told when the command waits for the PIN and when it has it. */
  progress?: Pick<ProgressReporter, 'step' | 'clear'>;
  /** Where the prompt is drawn; stderr so stdout stays the command's result. */
  output?: NodeJS.WriteStream;
  input?: NodeJS.ReadStream;
}

export interface CliPinSource {
  source: PinSource;
  /** Zeroes the PIN read from stdin, kept while the token may ask again (a second signature, a re-login). */
  zero(): void;
}

/**
 * Where the CLI gets a PIN: the first line of stdin with `--pin-stdin`, else a hidden prompt on the terminal that
 * says which token and how many tries are left. An empty PIN is refused here, so it never spends a try on the token.
 * Without a terminal and without `--pin-stdin` there is no way to ask: the error says how to give one.
 */
export function cliPinSource(options: CliPinOptions): CliPinSource {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stderr;
  let piped: Buffer | undefined;
  const source: PinSource = async (request) => {
    options.progress?.step('waiting for PIN');
    const pin = await askPin(request);
    if (pin !== null && pin.length === 0) {
      throw new TokenError('ERR_TOKEN_PIN_EMPTY', `The ${request.pinLabel} is empty; nothing was sent to the token and no try was spent.`, { status: 400 });
    }
    options.progress?.step('signing');
    return pin;
  };
  const askPin = async (request: Parameters<PinSource>[0]): Promise<Buffer | null> => {
    if (options.pinStdin) {
      piped ??= await (options.readPiped ?? (() => readStdinLine(input)))();
      return Buffer.from(piped);
    }
    if (input.isTTY) {
      options.progress?.clear();
      const typed = await readHiddenLine(input, () => output.write(promptText(options.tokenLabel, request)));
      output.write('\n');
      return typed;
    }
    throw new TokenError('ERR_TOKEN_PIN_REQUIRED', 'This token needs its PIN: run the command on a terminal to be asked for it, or give it on the first line of stdin with --pin-stdin.', { status: 401 });
  };
  return { source, zero: () => piped?.fill(0) };
}

function promptText(tokenLabel: string, request: Parameters<PinSource>[0]): string {
  const tries = request.finalTry
    ? ' (final try: a wrong one locks it)'
    : request.retriesLeft !== undefined
      ? ` (${request.retriesLeft} tries left)`
      : request.countLow
        ? ' (few tries left)'
        : '';
  const again = request.previousAttemptFailed ? 'The last one was wrong. ' : '';
  return `${again}${capitalize(request.pinLabel)} for ${tokenLabel}${tries}: `;
}

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
