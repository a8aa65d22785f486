import { describe, expect, it } from 'vitest';
import type { Applet } from './applet.js';
import { EmulatedCard } from './emulated-card.js';
import { response, SW, type CommandApdu } from './command-apdu.js';

/** An applet that echoes the command data it got, repeated to the asked length. */
class EchoApplet implements Applet {
  readonly name = 'echo';
  readonly aid = Buffer.from('F0010203040506', 'hex');
  last: CommandApdu | undefined;
  reset(): void {}
  select(): Buffer {
    return response(SW.OK);
  }
  process(command: CommandApdu): Buffer {
    this.last = command;
    return response(SW.OK, Buffer.alloc(600, command.data[0] ?? 0x55));
  }
}

describe('emulated card OS', () => {
  it('selects by a truncated AID, answers 6A82 for unknown ones', async () => {
    const card = new EmulatedCard(Buffer.from('3b00', 'hex'), [new EchoApplet()]);
    expect((await card.transmit(Buffer.from('00a4040005f001020304', 'hex'))).toString('hex')).toBe('9000');
    expect((await card.transmit(Buffer.from('00a4040005f0ffffffff', 'hex'))).toString('hex')).toBe('6a82');
  });

  it('chains long answers with 61xx and GET RESPONSE, and joins chained commands', async () => {
    const applet = new EchoApplet();
    const card = new EmulatedCard(Buffer.from('3b00', 'hex'), [applet]);
    await card.transmit(Buffer.from('00a4040007f0010203040506', 'hex'));
    const first = await card.transmit(Buffer.from('10aa000002abcd', 'hex'));
    expect(first.toString('hex')).toBe('9000');
    const last = await card.transmit(Buffer.from('00aa000001ef00', 'hex'));
    expect(applet.last?.data.toString('hex')).toBe('abcdef');
    expect(last.length).toBe(258);
    expect(last.subarray(-2).toString('hex')).toBe('6100'); // 344 bytes left: 61 00 means 256 or more
    const second = await card.transmit(Buffer.from('00c0000000', 'hex'));
    expect(second.subarray(-2).toString('hex')).toBe('6158'); // 88 left
    const third = await card.transmit(Buffer.from('00c0000058', 'hex'));
    expect(third.length).toBe(90);
    expect(third.subarray(-2).toString('hex')).toBe('9000');
  });

  it('answers an extended Le in one response', async () => {
    const card = new EmulatedCard(Buffer.from('3b00', 'hex'), [new EchoApplet()]);
    await card.transmit(Buffer.from('00a4040007f0010203040506', 'hex'));
    const answer = await card.transmit(Buffer.from('00aa0000000001010000', 'hex'));
    expect(answer.length).toBe(602);
  });
});
