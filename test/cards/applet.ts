import type { CommandApdu } from './command-apdu.js';

/**
 * One application on an emulated card. The card routes SELECT by AID, GET RESPONSE and command chaining itself;
 * an applet sees whole commands (chained data joined) and answers data||SW, of any length.
 */
export interface Applet {
  readonly name: string;
  readonly aid: Buffer;
  /** The applet became the current one; answers the SELECT response (data||SW). */
  select(command: CommandApdu): Buffer;
  process(command: CommandApdu): Buffer | Promise<Buffer>;
  /** Power cycle or reset: volatile state (security status, current file) is lost, counters are not. */
  reset(): void;
}
