import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import { MessageImprint, TimeStampReq } from '@peculiar/asn1-tsp';
import { AlgorithmIdentifier } from '@peculiar/asn1-x509';
import { parseTimestampRequest } from '../../../src/station/tsa/tsa-request-parser.js';
import { TsaRejection } from '../../../src/station/tsa/tsa-rejection.js';
import { readTimestampReply } from '../../../src/station/tsa/timestamp-reply-reader.js';
import { DEFAULT_TSA_POLICY_OID } from '../../../src/station/tsa/timestamp-authority.js';
import { openTsaFixture, type TsaFixture } from '../../support/tsa/tsa-fixture.js';

/** Deterministic PRNG (mulberry32) so a failing case can be replayed from the printed seed. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const seeds: Buffer[] = [
  ['2.16.840.1.101.3.4.2.1', 32],
  ['2.16.840.1.101.3.4.2.2', 48],
  ['2.16.840.1.101.3.4.2.3', 64],
].flatMap(([algorithm, length]) =>
  [true, false].map((full) =>
    Buffer.from(
      AsnConvert.serialize(
        new TimeStampReq({
          version: 1,
          messageImprint: new MessageImprint({
            hashAlgorithm: new AlgorithmIdentifier({ algorithm: algorithm as string, ...(full ? { parameters: null } : {}) }),
            hashedMessage: new OctetString(Buffer.alloc(length as number, 0x5a)),
          }),
          certReq: full,
          ...(full ? { nonce: Uint8Array.from([0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef]).buffer, reqPolicy: DEFAULT_TSA_POLICY_OID } : {}),
        }),
      ),
    ),
  ),
);

function randomBuffer(random: () => number, length: number): Buffer {
  return Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)));
}

function mutate(input: Buffer, random: () => number): Buffer {
  const bytes = Buffer.from(input);
  const at = (): number => Math.floor(random() * bytes.length);
  switch (Math.floor(random() * 8)) {
    case 0: // flip a bit
      bytes[at()]! ^= 1 << Math.floor(random() * 8);
      return bytes;
    case 1: // replace a byte
      bytes[at()] = Math.floor(random() * 256);
      return bytes;
    case 2: // truncate
      return bytes.subarray(0, at());
    case 3: // insert random bytes
      return Buffer.concat([bytes.subarray(0, at()), randomBuffer(random, 1 + Math.floor(random() * 4)), bytes.subarray(at())]);
    case 4: // delete a range
      return Buffer.concat([bytes.subarray(0, at()), bytes.subarray(at())]);
    case 5: // lie in a length octet: long forms, huge values, the BER indefinite form
      bytes[1 + Math.floor(random() * Math.min(8, bytes.length - 1))] = [0x80, 0x81, 0x84, 0xff, 0x7f, 0x00][Math.floor(random() * 6)]!;
      return bytes;
    case 6: // duplicate a slice
      return Buffer.concat([bytes, bytes.subarray(at())]);
    default: // several mutations in a row
      return mutate(mutate(bytes, random), random);
  }
}

describe('TimeStampReq parser under fuzzing', () => {
  let fixture: TsaFixture;
  beforeAll(async () => {
    fixture = await openTsaFixture();
  });
  afterAll(() => fixture.dispose());

  const seed = Date.now() >>> 0;

  it(`never throws anything but a TsaRejection on random and mutated DER, and agrees with @peculiar/asn1-tsp (seed ${seed})`, () => {
    const random = prng(seed);
    const outcomes = { accepted: 0, rejected: 0 };
    const inputs: Buffer[] = [];
    for (let i = 0; i < 1500; i++) inputs.push(randomBuffer(random, Math.floor(random() * 300)));
    for (let i = 0; i < 200; i++) inputs.push(Buffer.concat([Buffer.from([0x30, Math.floor(random() * 256)]), randomBuffer(random, Math.floor(random() * 120))]));
    for (let i = 0; i < 6000; i++) inputs.push(mutate(seeds[i % seeds.length]!, random));
    for (const input of inputs) {
      try {
        const request = parseTimestampRequest(input, DEFAULT_TSA_POLICY_OID);
        // differential check: what the hand-written parser accepts, the schema parser reads the same way
        const reference = AsnConvert.parse(input, TimeStampReq);
        expect(reference.version).toBe(1);
        expect(reference.messageImprint.hashAlgorithm.algorithm).toBe(request.hashAlgorithm.oid);
        expect(reference.messageImprint.hashAlgorithm.parameters === null).toBe(request.hashParametersNull);
        expect(Buffer.from(reference.messageImprint.hashedMessage.buffer)).toEqual(Buffer.from(request.hashedMessage));
        expect(reference.nonce && Buffer.from(reference.nonce)).toEqual(request.nonce && Buffer.from(request.nonce));
        expect(reference.certReq).toBe(request.certReq);
        expect(reference.extensions).toBeUndefined();
        outcomes.accepted++;
      } catch (error) {
        if (!(error instanceof TsaRejection)) throw new Error(`input ${input.toString('hex')} threw ${String(error)}`);
        outcomes.rejected++;
      }
    }
    // the mutations must exercise both paths, or the fuzzing proves nothing
    expect(outcomes.accepted).toBeGreaterThan(100);
    expect(outcomes.rejected).toBeGreaterThan(5000);
  });

  it(`always answers a well-formed TimeStampResp through the authority (seed ${seed + 1})`, async () => {
    const random = prng(seed + 1);
    for (let i = 0; i < 400; i++) {
      const input = i % 4 === 0 ? randomBuffer(random, Math.floor(random() * 200)) : mutate(seeds[i % seeds.length]!, random);
      const reply = readTimestampReply(await fixture.tsa.respond(input));
      expect([0, 2]).toContain(reply.status);
      if (reply.status === 0) {
        const request = parseTimestampRequest(input, DEFAULT_TSA_POLICY_OID);
        expect(Buffer.from(reply.tstInfo!.messageImprint.hashedMessage.buffer).equals(Buffer.from(request.hashedMessage))).toBe(true);
      } else {
        expect(reply.failInfo).toHaveLength(1);
      }
    }
  });
});
