import * as asn1js from 'asn1js';
import type { Applet } from './applet.js';
import type { CardKey } from './card-key.js';
import { response, SW, type CommandApdu } from './command-apdu.js';

/** The test eID's application identifier: F0 (proprietary, unregistered) "SST" "EID" 01. */
export const NATIONAL_ID_AID = Buffer.from('F0535354454944' + '01', 'hex');
export const NATIONAL_ID_FILES = { authCertificate: 0x3401, signCertificate: 0x341f, documentNumber: 0xd003 } as const;
export const NATIONAL_ID_PINS = { auth: 0x01, sign: 0x85 } as const;
export const NATIONAL_ID_KEYS = { auth: 0x81, sign: 0x9f } as const;
const PIN_BLOCK = 12;
const ALG_RSA_PKCS1 = 0x02;
const ALG_ECDSA = 0x04;

export interface NationalIdCardContent {
  authKey: CardKey;
  authCertificate: Uint8Array;
  signKey: CardKey;
  signCertificate: Uint8Array;
  documentNumber: string;
  authPin: string;
  signPin: string;
  pinTries?: number;
  /** Accepts extended-length READ BINARY (Le up to 65535); a short-only card answers 6700 to those. */
  extendedLength: boolean;
}

interface PinState {
  value: Buffer;
  tries: number;
  max: number;
  verified: boolean;
}

/**
 * A national-ID-style applet in the manner of current European eID cards: certificates in transparent EFs read
 * with READ BINARY, an authentication PIN (PIN1) that stays verified for the session, a signing PIN (PIN2)
 * that authorises exactly one PSO: COMPUTE DIGITAL SIGNATURE, retry counters (63Cx, 6983), MSE: SET choosing
 * key and algorithm, INTERNAL AUTHENTICATE with the authentication key. ECDSA answers are plain r||s.
 */
export class NationalIdApplet implements Applet {
  readonly name = 'national-id';
  readonly aid = NATIONAL_ID_AID;
  private readonly files: Map<number, Buffer>;
  private readonly pins: Map<number, PinState>;
  private readonly content: NationalIdCardContent;
  private currentFile: number | undefined;
  private environment: { template: number; key: number; algorithm: number } | undefined;
  /** Number of signatures made, per key reference (tests check the card really signed). */
  readonly signatureCount = new Map<number, number>();

  constructor(content: NationalIdCardContent) {
    this.content = content;
    this.files = new Map([
      [NATIONAL_ID_FILES.authCertificate, Buffer.from(content.authCertificate)],
      [NATIONAL_ID_FILES.signCertificate, Buffer.from(content.signCertificate)],
      [NATIONAL_ID_FILES.documentNumber, Buffer.from(content.documentNumber, 'ascii')],
    ]);
    const max = content.pinTries ?? 3;
    this.pins = new Map([
      [NATIONAL_ID_PINS.auth, { value: Buffer.from(content.authPin), tries: max, max, verified: false }],
      [NATIONAL_ID_PINS.sign, { value: Buffer.from(content.signPin), tries: max, max, verified: false }],
    ]);
  }

  /** Sets a PIN's retry counter, as if earlier attempts had failed (0 blocks it). */
  setPinTries(reference: number, tries: number): void {
    const pin = this.pins.get(reference);
    if (!pin) throw new Error(`no PIN ${reference}`);
    pin.tries = tries;
  }

  pinTries(reference: number): number {
    return this.pins.get(reference)?.tries ?? -1;
  }

  reset(): void {
    this.currentFile = undefined;
    this.environment = undefined;
    for (const pin of this.pins.values()) pin.verified = false;
  }

  select(): Buffer {
    this.currentFile = undefined;
    return response(SW.OK);
  }

  async process(command: CommandApdu): Promise<Buffer> {
    if ((command.cla & 0xef) !== 0x00) return response(SW.CLA_NOT_SUPPORTED);
    switch (command.ins) {
      case 0xa4:
        return this.selectFile(command);
      case 0xb0:
        return this.readBinary(command);
      case 0x20:
        return this.verify(command);
      case 0x22:
        return this.manageSecurityEnvironment(command);
      case 0x2a:
        return this.performSecurityOperation(command);
      case 0x88:
        return this.internalAuthenticate(command);
      default:
        return response(SW.INS_NOT_SUPPORTED);
    }
  }

  private selectFile(command: CommandApdu): Buffer {
    if (command.p1 !== 0x02 || command.data.length !== 2) return response(SW.INCORRECT_P1P2);
    const fid = command.data.readUInt16BE(0);
    const file = this.files.get(fid);
    if (!file) return response(SW.FILE_NOT_FOUND);
    this.currentFile = fid;
    if (command.p2 === 0x0c) return response(SW.OK);
    // FCP: file size (80), descriptor "transparent EF" (82), file identifier (83).
    const fcp = Buffer.from([0x62, 0x0b, 0x80, 0x02, file.length >> 8, file.length & 0xff, 0x82, 0x01, 0x01, 0x83, 0x02, fid >> 8, fid & 0xff]);
    return response(SW.OK, fcp);
  }

  private readBinary(command: CommandApdu): Buffer {
    if (command.extended && !this.content.extendedLength) return response(SW.WRONG_LENGTH);
    if (command.p1 & 0x80) return response(SW.FUNCTION_NOT_SUPPORTED);
    const file = this.currentFile === undefined ? undefined : this.files.get(this.currentFile);
    if (!file) return response(SW.CONDITIONS_NOT_SATISFIED);
    const offset = (command.p1 << 8) | command.p2;
    if (offset >= file.length) return response(SW.WRONG_P1P2);
    const chunk = file.subarray(offset, offset + command.le);
    return response(chunk.length < command.le ? SW.WARNING_END_OF_FILE : SW.OK, chunk);
  }

  private verify(command: CommandApdu): Buffer {
    if (command.p1 !== 0x00) return response(SW.INCORRECT_P1P2);
    const pin = this.pins.get(command.p2);
    if (!pin) return response(SW.REFERENCED_DATA_NOT_FOUND);
    if (command.data.length === 0) {
      if (pin.tries === 0) return response(SW.AUTH_METHOD_BLOCKED);
      return response(pin.verified ? SW.OK : 0x63c0 | pin.tries);
    }
    if (command.data.length !== PIN_BLOCK) return response(SW.WRONG_LENGTH);
    if (pin.tries === 0) return response(SW.AUTH_METHOD_BLOCKED);
    const end = command.data.indexOf(0xff);
    const given = command.data.subarray(0, end < 0 ? PIN_BLOCK : end);
    if (given.equals(pin.value)) {
      pin.tries = pin.max;
      pin.verified = true;
      return response(SW.OK);
    }
    pin.tries -= 1;
    pin.verified = false;
    return response(0x63c0 | pin.tries);
  }

  private manageSecurityEnvironment(command: CommandApdu): Buffer {
    if (command.p1 !== 0x41 || (command.p2 !== 0xb6 && command.p2 !== 0xa4)) return response(SW.INCORRECT_P1P2);
    let algorithm: number | undefined;
    let key: number | undefined;
    for (let i = 0; i < command.data.length; ) {
      if (i + 2 > command.data.length) return response(SW.WRONG_DATA);
      const tag = command.data[i]!;
      const length = command.data[i + 1]!;
      const value = command.data.subarray(i + 2, i + 2 + length);
      if (value.length !== length) return response(SW.WRONG_DATA);
      if (tag === 0x80 && length === 1) algorithm = value[0];
      else if (tag === 0x84 && length === 1) key = value[0];
      else return response(SW.WRONG_DATA);
      i += 2 + length;
    }
    // The access rules: the signing key only in a digital signature template, the auth key only for authentication.
    const expectedKey = command.p2 === 0xb6 ? NATIONAL_ID_KEYS.sign : NATIONAL_ID_KEYS.auth;
    if (key !== expectedKey || algorithm === undefined) return response(SW.REFERENCED_DATA_NOT_FOUND);
    const cardKey = this.keyFor(key);
    if ((cardKey.type === 'rsa' ? ALG_RSA_PKCS1 : ALG_ECDSA) !== algorithm) return response(SW.WRONG_DATA);
    this.environment = { template: command.p2, key, algorithm };
    return response(SW.OK);
  }

  private async performSecurityOperation(command: CommandApdu): Promise<Buffer> {
    if (command.p1 !== 0x9e || command.p2 !== 0x9a) return response(SW.INCORRECT_P1P2);
    if (this.environment?.template !== 0xb6) return response(SW.CONDITIONS_NOT_SATISFIED);
    const pin = this.pins.get(NATIONAL_ID_PINS.sign)!;
    if (!pin.verified) return response(SW.SECURITY_NOT_SATISFIED);
    // One signature per PIN2 verification, as a qualified signature creation device does.
    pin.verified = false;
    return this.compute(NATIONAL_ID_KEYS.sign, command.data);
  }

  private async internalAuthenticate(command: CommandApdu): Promise<Buffer> {
    if (command.p1 !== 0x00 || command.p2 !== 0x00) return response(SW.INCORRECT_P1P2);
    if (this.environment?.template !== 0xa4) return response(SW.CONDITIONS_NOT_SATISFIED);
    if (!this.pins.get(NATIONAL_ID_PINS.auth)!.verified) return response(SW.SECURITY_NOT_SATISFIED);
    return this.compute(NATIONAL_ID_KEYS.auth, command.data);
  }

  private async compute(keyReference: number, input: Buffer): Promise<Buffer> {
    const key = this.keyFor(keyReference);
    let signature: Buffer;
    if (key.type === 'rsa') {
      if (input.length > key.sizeBytes - 11) return response(SW.WRONG_LENGTH);
      signature = key.rsaPkcs1(input);
    } else {
      if (![32, 48, 64].includes(input.length)) return response(SW.WRONG_LENGTH);
      // ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }, answered as r||s like current eID cards.
      const sequence = asn1js.fromBER(await key.ecdsaDer(input)).result as asn1js.Sequence;
      const [r, s] = sequence.valueBlock.value as asn1js.Integer[];
      signature = Buffer.concat([fixed(r!.valueBlock.valueHexView, key.sizeBytes), fixed(s!.valueBlock.valueHexView, key.sizeBytes)]);
    }
    this.signatureCount.set(keyReference, (this.signatureCount.get(keyReference) ?? 0) + 1);
    return response(SW.OK, signature);
  }

  private keyFor(reference: number): CardKey {
    return reference === NATIONAL_ID_KEYS.sign ? this.content.signKey : this.content.authKey;
  }
}

function fixed(integer: Uint8Array, size: number): Buffer {
  let bytes = Buffer.from(integer);
  while (bytes.length > size && bytes[0] === 0) bytes = bytes.subarray(1);
  return Buffer.concat([Buffer.alloc(size - bytes.length), bytes]);
}
