import type { Applet } from './applet.js';
import { readTlvs, tlv } from './ber-tlv.js';
import type { CardKey } from './card-key.js';
import { response, SW, type CommandApdu } from './command-apdu.js';

export const PIV_AID = Buffer.from('A000000308000010000100', 'hex');
const PIV_PIN = 0x80;
const GLOBAL_RESET = 0xff;

/** PIV key references (SP 800-73-4 part 1, table 4b) and the data objects holding their certificates. */
export const PIV_SLOTS = {
  authentication: { key: 0x9a, object: 0x5fc105 },
  signature: { key: 0x9c, object: 0x5fc10a },
  keyManagement: { key: 0x9d, object: 0x5fc10b },
  cardAuthentication: { key: 0x9e, object: 0x5fc101 },
} as const;
export type PivSlotName = keyof typeof PIV_SLOTS;

/** GENERAL AUTHENTICATE algorithm identifiers (SP 800-78-4 table 6-2). */
const ALGORITHMS: Record<number, { type: 'rsa' | 'ec'; size: number }> = {
  0x07: { type: 'rsa', size: 256 },
  0x05: { type: 'rsa', size: 384 },
  0x11: { type: 'ec', size: 32 },
  0x14: { type: 'ec', size: 48 },
};

export interface PivSlotContent {
  key: CardKey;
  certificate: Uint8Array;
}

export interface PivCardContent {
  slots: Partial<Record<PivSlotName, PivSlotContent>>;
  pin: string;
  pinTries?: number;
  /** 16-byte card UUID for the CHUID (OpenSC derives the token serial from it). */
  guid: Buffer;
}

/**
 * A PIV applet (SP 800-73-4) as far as OpenSC's PIV driver uses it: SELECT with the application property
 * template, GET DATA for the CHUID, Discovery object and certificates, VERIFY of the PIV PIN with a real retry
 * counter (63Cx, 6983), and GENERAL AUTHENTICATE signing with raw RSA (the host pads) or ECDSA (DER answer).
 * The digital signature key (9C) needs the PIN right before each use, as SP 800-73-4 prescribes.
 */
export class PivApplet implements Applet {
  readonly name = 'piv';
  readonly aid = PIV_AID;
  private readonly content: PivCardContent;
  private readonly objects = new Map<number, Buffer>();
  private readonly maxTries: number;
  private tries: number;
  private verified = false;
  private signatureKeyAuthorised = false;
  readonly signatureCount = new Map<number, number>();

  constructor(content: PivCardContent) {
    this.content = content;
    this.maxTries = content.pinTries ?? 3;
    this.tries = this.maxTries;
    const fascn = Buffer.from('D4E739DA739CED39CE739D836858210842108421C84210C3EB', 'hex');
    this.objects.set(0x5fc102, tlv(0x53, tlv(0x30, fascn), tlv(0x34, content.guid), tlv(0x35, Buffer.from('20301231')), tlv(0x3e), tlv(0xfe)));
    this.objects.set(0x7e, tlv(0x7e, tlv(0x4f, PIV_AID), tlv(0x5f2f, Buffer.from([0x40, 0x00]))));
    for (const [name, slot] of Object.entries(content.slots) as [PivSlotName, PivSlotContent][]) {
      this.objects.set(PIV_SLOTS[name].object, tlv(0x53, tlv(0x70, slot.certificate), tlv(0x71, Buffer.from([0x00])), tlv(0xfe)));
    }
  }

  /** Sets the PIN retry counter, as if earlier attempts had failed (0 blocks it). */
  setPinTries(tries: number): void {
    this.tries = tries;
  }

  get pinTries(): number {
    return this.tries;
  }

  reset(): void {
    this.verified = false;
    this.signatureKeyAuthorised = false;
  }

  select(): Buffer {
    const template = tlv(0x61, tlv(0x4f, PIV_AID.subarray(5, 9)), tlv(0x79, tlv(0x4f, PIV_AID.subarray(0, 5))));
    return response(SW.OK, template);
  }

  async process(command: CommandApdu): Promise<Buffer> {
    if ((command.cla & 0xef) !== 0x00) return response(SW.CLA_NOT_SUPPORTED);
    switch (command.ins) {
      case 0xcb:
        return this.getData(command);
      case 0x20:
        return this.verify(command);
      case 0x87:
        return this.generalAuthenticate(command);
      default:
        return response(SW.INS_NOT_SUPPORTED);
    }
  }

  private getData(command: CommandApdu): Buffer {
    if (command.p1 !== 0x3f || command.p2 !== 0xff) return response(SW.INCORRECT_P1P2);
    const tag = readTlvs(command.data).get(0x5c);
    if (!tag || tag.length < 1 || tag.length > 3) return response(SW.WRONG_DATA);
    const object = this.objects.get(tag.readUIntBE(0, tag.length));
    return object ? response(SW.OK, object) : response(SW.FILE_NOT_FOUND);
  }

  private verify(command: CommandApdu): Buffer {
    if (command.p1 === GLOBAL_RESET && command.p2 === PIV_PIN) {
      this.verified = false;
      this.signatureKeyAuthorised = false;
      return response(SW.OK);
    }
    if (command.p1 !== 0x00 || command.p2 !== PIV_PIN) return response(SW.REFERENCED_DATA_NOT_FOUND);
    if (command.data.length === 0) {
      if (this.tries === 0) return response(SW.AUTH_METHOD_BLOCKED);
      return response(this.verified ? SW.OK : 0x63c0 | this.tries);
    }
    if (command.data.length !== 8) return response(SW.WRONG_LENGTH);
    if (this.tries === 0) return response(SW.AUTH_METHOD_BLOCKED);
    const end = command.data.indexOf(0xff);
    if (command.data.subarray(0, end < 0 ? 8 : end).equals(Buffer.from(this.content.pin))) {
      this.tries = this.maxTries;
      this.verified = true;
      this.signatureKeyAuthorised = true;
      return response(SW.OK);
    }
    this.tries -= 1;
    this.verified = false;
    this.signatureKeyAuthorised = false;
    return response(0x63c0 | this.tries);
  }

  private async generalAuthenticate(command: CommandApdu): Promise<Buffer> {
    const algorithm = ALGORITHMS[command.p1];
    const slot = (Object.keys(PIV_SLOTS) as PivSlotName[]).find((name) => PIV_SLOTS[name].key === command.p2);
    const content = slot ? this.content.slots[slot] : undefined;
    if (!algorithm || !content) return response(SW.INCORRECT_P1P2);
    if (content.key.type !== algorithm.type || content.key.sizeBytes !== algorithm.size) return response(SW.INCORRECT_P1P2);
    const template = readTlvs(command.data).get(0x7c);
    const challenge = template ? readTlvs(template).get(0x81) : undefined;
    if (!challenge || !readTlvs(template!).has(0x82)) return response(SW.WRONG_DATA);
    if (slot !== 'cardAuthentication' && !this.verified) return response(SW.SECURITY_NOT_SATISFIED);
    if (slot === 'signature') {
      if (!this.signatureKeyAuthorised) return response(SW.SECURITY_NOT_SATISFIED);
      this.signatureKeyAuthorised = false;
    }
    let signature: Buffer;
    if (algorithm.type === 'rsa') {
      if (challenge.length !== algorithm.size) return response(SW.WRONG_DATA);
      signature = content.key.rsaRaw(Buffer.from(challenge));
    } else {
      if (challenge.length !== algorithm.size) return response(SW.WRONG_DATA);
      signature = await content.key.ecdsaDer(Buffer.from(challenge));
    }
    this.signatureCount.set(command.p2, (this.signatureCount.get(command.p2) ?? 0) + 1);
    return response(SW.OK, tlv(0x7c, tlv(0x82, signature)));
  }
}
