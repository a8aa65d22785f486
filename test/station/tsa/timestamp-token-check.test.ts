import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timestampSignature } from '../../../src/station/signing/signature-timestamp.js';
import { EmbeddedTimestampClient } from '../../../src/station/tsa/embedded-timestamp-client.js';
import { readTimestampToken } from '../../../src/station/tsa/timestamp-token-reader.js';
import type { TimestampClient } from '../../../src/station/tsa/timestamp-client.js';
import { openTsaFixture, type TsaFixture } from '../../support/tsa/tsa-fixture.js';

// Signing holds every TimestampClient to the token it embeds, through the one TSTInfo reader the TSA client uses.
describe('signature timestamp check', () => {
  let fixture: TsaFixture;
  let genuine: EmbeddedTimestampClient;
  const imprint = createHash('sha256').update('the signature value').digest();
  const otherImprint = createHash('sha256').update('another signature value').digest();

  beforeAll(async () => {
    fixture = await openTsaFixture();
    genuine = new EmbeddedTimestampClient(fixture.tsa);
  });
  afterAll(() => fixture.dispose());

  it('embeds a token over the imprint, whose TSTInfo names that imprint', async () => {
    const token = await timestampSignature(genuine, imprint, 'SHA-256');
    const tstInfo = readTimestampToken(token);
    expect(Buffer.from(tstInfo.messageImprint.hashedMessage.buffer)).toEqual(imprint);
    expect(tstInfo.messageImprint.hashAlgorithm.algorithm).toBe('2.16.840.1.101.3.4.2.1');
  });

  it('refuses a valid token over another hash', async () => {
    const substituting: TimestampClient = { timestamp: () => genuine.timestamp(otherImprint, 'SHA-256') };
    await expect(timestampSignature(substituting, imprint, 'SHA-256')).rejects.toMatchObject({
      code: 'ERR_SIGNING_TIMESTAMP_FAILED',
      message: 'The timestamp token does not cover the signature value.',
    });
  });

  it('refuses bytes that are not a timestamp token', async () => {
    const garbled: TimestampClient = { timestamp: async () => new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01]) };
    await expect(timestampSignature(garbled, imprint, 'SHA-256')).rejects.toMatchObject({
      code: 'ERR_SIGNING_TIMESTAMP_FAILED',
      message: expect.stringContaining('unreadable token'),
    });
  });
});
