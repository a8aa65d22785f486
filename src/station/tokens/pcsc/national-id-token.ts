import { constants, publicDecrypt, X509Certificate } from 'node:crypto';
import { InvalidInputError } from '../../../core/errors/invalid-input-error.js';
import type { PinStatus, TokenCertificate, TokenDescription } from '../../../core/schemas/token-description.js';
import type { SignRequest, Token } from '../token.js';
import { PinLockedError, UserCancelledError } from '../token-errors.js';
import { toTokenCertificate } from '../../pki/certificate-validity.js';
import type { Clock } from '../../ports/clock.js';
import { encodeDigestInfo } from '../../pki/digest-info.js';
import { HASH_ALGORITHMS } from '../../pki/hash-algorithms.js';
import type { CardChannel } from './card-channel.js';
import { CardStatusError, KeyUsageError } from './pcsc-errors.js';

/**
 * The card profile: application, files, PINs and keys of the national-ID-style card (in the manner of current
 * European eID cards; test/cards/national-id-applet.ts emulates it).
 */
const PROFILE = {
  aid: Buffer.from('F053535445494401', 'hex'),
  documentNumberFile: 0xd003,
  pinBlockLength: 12,
  pinLength: { min: 4, max: 12 },
  keys: {
    authenticate: { id: '81', reference: 0x81, file: 0x3401, pin: 0x01, pinLabel: 'PIN1', template: 0xa4, usage: 'authentication' },
    sign: { id: '9f', reference: 0x9f, file: 0x341f, pin: 0x85, pinLabel: 'PIN2', template: 0xb6, usage: 'signing' },
  },
  algorithms: { rsaPkcs1: 0x02, ecdsa: 0x04 },
} as const;

type KeyProfile = (typeof PROFILE.keys)[keyof typeof PROFILE.keys];

const SW_OK = 0x9000;
const SW_END_OF_FILE = 0x6282;
const SW_BLOCKED = 0x6983;

export interface NationalIdCardInfo {
  reader: string;
  atr: string;
  cardName: string;
  extendedLength: boolean;
}

/**
 * Direct-APDU driver of the national-ID-style card, as a Token. Certificates are read once when the card is
 * opened; each signature asks for the PIN of its key (PIN2 for documents, PIN1 for authentication), so the
 * card's session state never stands in for the user's consent. The authentication key never signs a document
 * hash and the signing key never answers an authentication challenge: the key follows `purpose`.
 */
export class NationalIdToken implements Token {
  readonly kind = 'pcsc' as const;
  readonly id: string;
  readonly label: string;
  private readonly channel: CardChannel;
  private readonly info: NationalIdCardInfo;
  private readonly documentNumber: string;
  private readonly certificates: Map<string, { der: Buffer; key: KeyProfile }>;
  private readonly clock: Clock;

  private constructor(channel: CardChannel, info: NationalIdCardInfo, documentNumber: string, certificates: Map<string, { der: Buffer; key: KeyProfile }>, clock: Clock) {
    this.clock = clock;
    this.channel = channel;
    this.info = info;
    this.documentNumber = documentNumber;
    this.certificates = certificates;
    this.id = `pcsc:national-id:${documentNumber}`;
    const holder = new X509Certificate(certificates.get(PROFILE.keys.sign.id)!.der).subject.match(/^CN=(.*)$/m)?.[1];
    this.label = holder ? `${holder} (${info.cardName} ${documentNumber})` : `${info.cardName} ${documentNumber}`;
  }

  /** Selects the application and reads the document number and both certificates. */
  static async open(channel: CardChannel, info: NationalIdCardInfo, clock: Clock, signal?: AbortSignal): Promise<NationalIdToken> {
    return channel.exclusive(async () => {
      await selectApplication(channel, signal);
      const documentNumber = (await readFile(channel, PROFILE.documentNumberFile, info.extendedLength, signal)).toString('ascii').trim();
      const certificates = new Map<string, { der: Buffer; key: KeyProfile }>();
      for (const key of [PROFILE.keys.authenticate, PROFILE.keys.sign]) {
        certificates.set(key.id, { der: await readFile(channel, key.file, info.extendedLength, signal), key });
      }
      return new NationalIdToken(channel, info, documentNumber, certificates, clock);
    });
  }

  async describe(): Promise<TokenDescription> {
    return {
      id: this.id,
      kind: this.kind,
      label: this.label,
      reader: this.info.reader,
      driver: 'national-id (direct APDU)',
      serialNumber: this.documentNumber,
      atr: this.info.atr,
      pin: await this.pinStatus(),
      certificates: await this.listCertificates(),
    };
  }

  async listCertificates(): Promise<TokenCertificate[]> {
    // certificate-summary.ts parses with @peculiar/x509: loaded when certificates are first listed, not with the station.
    const { summarizeCertificate } = await import('../../pki/certificate-summary.js');
    const now = this.clock.now();
    return [...this.certificates.values()].map(({ der, key }) => ({ ...toTokenCertificate(summarizeCertificate(der, key.id, now, key.usage), now), pinEverySignature: true }));
  }

  /** The signing PIN's state (PIN2), the one document signing needs; `pinStatusFor` gives either. */
  async pinStatus(): Promise<PinStatus> {
    return this.pinStatusFor('sign');
  }

  async pinStatusFor(purpose: SignRequest['purpose']): Promise<PinStatus> {
    const key = PROFILE.keys[purpose];
    return this.channel.exclusive(async () => {
      await selectApplication(this.channel);
      const { sw } = await this.channel.transmit({ ins: 0x20, p1: 0x00, p2: key.pin });
      const retriesLeft = sw === SW_BLOCKED ? 0 : (sw & 0xfff0) === 0x63c0 ? sw & 0x0f : undefined;
      return { ...(retriesLeft === undefined ? {} : { retriesLeft }), countLow: retriesLeft !== undefined && retriesLeft < 3, finalTry: retriesLeft === 1, locked: retriesLeft === 0, pinpad: false };
    });
  }

  async sign(request: SignRequest): Promise<Uint8Array> {
    const expected = HASH_ALGORITHMS[request.hashAlgorithm]?.length;
    if (expected === undefined) throw new InvalidInputError(`Unsupported hash algorithm ${String(request.hashAlgorithm)}.`);
    if (!(request.hash instanceof Uint8Array) || request.hash.length !== expected) {
      throw new InvalidInputError(`A ${request.hashAlgorithm} hash is ${expected} bytes, got ${request.hash?.length ?? 0}.`);
    }
    const entry = this.certificates.get(request.certificateId);
    if (!entry) throw new KeyUsageError(`No certificate ${request.certificateId} on this card.`);
    const key = PROFILE.keys[request.purpose];
    if (entry.key !== key) {
      throw new KeyUsageError(
        request.purpose === 'sign'
          ? 'The authentication key does not sign documents: choose the signing certificate.'
          : 'The signing key does not answer authentication challenges: choose the authentication certificate.',
      );
    }
    const publicKey = new X509Certificate(entry.der).publicKey;
    const rsa = publicKey.asymmetricKeyType === 'rsa';
    if ((rsa && request.scheme !== 'RSASSA-PKCS1-v1_5') || (!rsa && request.scheme !== 'ECDSA')) {
      throw new KeyUsageError(`This card's ${rsa ? 'RSA' : 'EC'} key does not support ${request.scheme}.`);
    }
    const input = Buffer.from(rsa ? encodeDigestInfo(request.hashAlgorithm, request.hash) : request.hash);

    const signature = await this.channel.exclusive(async () => {
      await selectApplication(this.channel, request.signal);
      await this.verifyPin(key, request);
      const environment = Buffer.from([0x80, 0x01, rsa ? PROFILE.algorithms.rsaPkcs1 : PROFILE.algorithms.ecdsa, 0x84, 0x01, key.reference]);
      const mse = await this.channel.transmit({ ins: 0x22, p1: 0x41, p2: key.template, data: environment }, request.signal);
      if (mse.sw !== SW_OK) throw new CardStatusError('MSE: SET', mse.sw);
      const command = request.purpose === 'sign' ? { ins: 0x2a, p1: 0x9e, p2: 0x9a } : { ins: 0x88, p1: 0x00, p2: 0x00 };
      const result = await this.channel.transmit({ ...command, data: input, le: 256 }, request.signal);
      if (result.sw !== SW_OK) throw new CardStatusError(request.purpose === 'sign' ? 'PSO: COMPUTE DIGITAL SIGNATURE' : 'INTERNAL AUTHENTICATE', result.sw);
      return Buffer.from(result.data);
    });

    // A faulty RSA-CRT signature would give the private key away to whoever sees it (Boneh-DeMillo-Lipton):
    // check it before it leaves. For ECDSA only the shape can be checked here, as Node verifies only with its own hash.
    if (rsa) {
      let recovered: Buffer | undefined;
      try {
        recovered = publicDecrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, signature);
      } catch {
        recovered = undefined;
      }
      if (!recovered?.equals(input)) throw new CardStatusError('the signature check', SW_OK);
    } else {
      const fieldBytes = Math.ceil(Number((publicKey.asymmetricKeyDetails?.namedCurve ?? '').match(/\d+/)?.[0] ?? 0) / 8);
      if (signature.length !== 2 * fieldBytes) throw new CardStatusError('the signature check', SW_OK);
    }
    return signature;
  }

  /** Asks for the key's PIN until the card accepts it, the user cancels, or the PIN blocks. */
  private async verifyPin(key: KeyProfile, request: SignRequest): Promise<void> {
    let previousAttemptFailed = false;
    for (;;) {
      const status = await this.channel.transmit({ ins: 0x20, p1: 0x00, p2: key.pin }, request.signal);
      if (status.sw === SW_BLOCKED || status.sw === 0x63c0) throw new PinLockedError();
      const retriesLeft = (status.sw & 0xfff0) === 0x63c0 ? status.sw & 0x0f : undefined;
      const pin = await request.pin({ ...(retriesLeft === undefined ? {} : { retriesLeft }), finalTry: retriesLeft === 1, countLow: retriesLeft !== undefined && retriesLeft < 3, previousAttemptFailed, pinLabel: key.pinLabel });
      if (pin === null) throw new UserCancelledError();
      const block = Buffer.alloc(PROFILE.pinBlockLength, 0xff);
      try {
        if (pin.length < PROFILE.pinLength.min || pin.length > PROFILE.pinLength.max) {
          // Refused before it reaches the card, so a mistyped length costs no try.
          throw new InvalidInputError(`${key.pinLabel} is ${PROFILE.pinLength.min} to ${PROFILE.pinLength.max} digits.`);
        }
        block.set(pin);
      } finally {
        pin.fill(0);
      }
      let answer;
      try {
        answer = await this.channel.transmit({ ins: 0x20, p1: 0x00, p2: key.pin, data: block }, request.signal);
      } finally {
        block.fill(0);
      }
      if (answer.sw === SW_OK) return;
      if (answer.sw === SW_BLOCKED || answer.sw === 0x63c0) throw new PinLockedError();
      if ((answer.sw & 0xfff0) !== 0x63c0) throw new CardStatusError('VERIFY', answer.sw);
      previousAttemptFailed = true;
    }
  }

  /** Closes the card connection (the card has no session to log out of; PINs are asked per signature). */
  async release(): Promise<void> {
    await this.channel.close();
  }
}

async function selectApplication(channel: CardChannel, signal?: AbortSignal): Promise<void> {
  const { sw } = await channel.transmit({ ins: 0xa4, p1: 0x04, p2: 0x0c, data: PROFILE.aid }, signal);
  if (sw !== SW_OK) throw new CardStatusError('SELECT of the eID application', sw);
}

/** Reads a transparent EF whole: its size from the FCP, then READ BINARY in one extended or several short reads. */
async function readFile(channel: CardChannel, fid: number, extendedLength: boolean, signal?: AbortSignal): Promise<Buffer> {
  const selected = await channel.transmit({ ins: 0xa4, p1: 0x02, p2: 0x04, data: Buffer.from([fid >> 8, fid & 0xff]), le: 256 }, signal);
  if (selected.sw !== SW_OK) throw new CardStatusError(`SELECT of file ${fid.toString(16)}`, selected.sw);
  const size = fileSize(selected.data);
  if (size === undefined || size > 0x7fff) throw new CardStatusError(`SELECT of file ${fid.toString(16)} (no usable size)`, selected.sw);
  const parts: Buffer[] = [];
  let offset = 0;
  while (offset < size) {
    const le = extendedLength ? size - offset : Math.min(size - offset, 256);
    const read = await channel.transmit({ ins: 0xb0, p1: offset >> 8, p2: offset & 0xff, le, extended: le > 256 }, signal);
    if (read.sw !== SW_OK && read.sw !== SW_END_OF_FILE) throw new CardStatusError(`READ BINARY of file ${fid.toString(16)}`, read.sw);
    if (read.data.length === 0) break;
    parts.push(read.data);
    offset += read.data.length;
    if (read.sw === SW_END_OF_FILE) break;
  }
  return Buffer.concat(parts);
}

/** The file size (tag 80) inside an FCP template (tag 62), ISO 7816-4 table 12. */
function fileSize(fcp: Buffer): number | undefined {
  if (fcp[0] !== 0x62 || fcp.length < 2) return undefined;
  for (let i = 2; i + 1 < fcp.length; i += 2 + fcp[i + 1]!) {
    const length = fcp[i + 1]!;
    if (fcp[i] === 0x80 && length >= 1 && length <= 2) return fcp.subarray(i + 2, i + 2 + length).readUIntBE(0, length);
  }
  return undefined;
}
