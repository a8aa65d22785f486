import type { Applet } from './applet.js';
import { ApduFormatError, parseCommandApdu, response, SW, type CommandApdu } from './command-apdu.js';

/**
 * A card operating system in miniature: holds the ATR and the applets, and does what every applet would
 * otherwise repeat: SELECT by (possibly truncated) AID, command chaining (CLA bit 0x10), and response chaining
 * with 61xx / GET RESPONSE when a short Le cannot carry the answer.
 */
export class EmulatedCard {
  readonly atr: Buffer;
  private readonly applets: Applet[];
  private current: Applet | undefined;
  private pendingResponse: Buffer | undefined;
  private chain: { ins: number; parts: Buffer[] } | undefined;

  constructor(atr: Buffer, applets: Applet[]) {
    this.atr = atr;
    this.applets = applets;
  }

  reset(): void {
    this.current = undefined;
    this.pendingResponse = undefined;
    this.chain = undefined;
    for (const applet of this.applets) applet.reset();
  }

  async transmit(bytes: Buffer): Promise<Buffer> {
    let command: CommandApdu;
    try {
      command = parseCommandApdu(bytes);
    } catch (error) {
      if (error instanceof ApduFormatError) return response(SW.WRONG_LENGTH);
      throw error;
    }
    if (command.ins === 0xc0 && (command.cla & 0x80) === 0) return this.getResponse(command);
    this.pendingResponse = undefined;

    if (command.chained) {
      if (this.chain && this.chain.ins !== command.ins) this.chain = undefined;
      this.chain ??= { ins: command.ins, parts: [] };
      this.chain.parts.push(command.data);
      return response(SW.OK);
    }
    if (this.chain) {
      const parts = this.chain.ins === command.ins ? [...this.chain.parts, command.data] : [command.data];
      this.chain = undefined;
      command = { ...command, data: Buffer.concat(parts) };
    }

    const answer = await this.route(command);
    return this.fit(answer, command);
  }

  private async route(command: CommandApdu): Promise<Buffer> {
    if (command.ins === 0xa4 && command.p1 === 0x04) {
      const applet = this.applets.find((a) => command.data.length >= 5 && a.aid.subarray(0, command.data.length).equals(command.data));
      if (!applet) return response(SW.FILE_NOT_FOUND);
      if (this.current !== applet) this.current?.reset();
      this.current = applet;
      return applet.select(command);
    }
    if (!this.current) return response(SW.CONDITIONS_NOT_SATISFIED);
    return this.current.process(command);
  }

  /** Splits an answer longer than Le into 61xx parts, as a T=0 card or a short-APDU T=1 card does. */
  private fit(answer: Buffer, command: CommandApdu): Buffer {
    const data = answer.subarray(0, answer.length - 2);
    const sw = answer.readUInt16BE(answer.length - 2);
    const room = command.extended ? command.le || 65536 : command.le || 256;
    if (data.length <= room || sw !== SW.OK) return answer;
    this.pendingResponse = Buffer.from(data.subarray(room));
    return response(0x6100 | Math.min(this.pendingResponse.length, 256) % 256, data.subarray(0, room));
  }

  private getResponse(command: CommandApdu): Buffer {
    const pending = this.pendingResponse;
    this.pendingResponse = undefined;
    if (!pending) return response(SW.CONDITIONS_NOT_SATISFIED);
    return this.fit(response(SW.OK, pending), command);
  }
}
