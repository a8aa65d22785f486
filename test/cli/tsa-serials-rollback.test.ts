import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import { MessageImprint, TimeStampReq } from '@peculiar/asn1-tsp';
import { AlgorithmIdentifier } from '@peculiar/asn1-x509';
import { readTimestampReply } from '../../src/station/tsa/timestamp-reply-reader.js';
import { runCli, startServe } from '../support/station/run-cli.js';
import { postRaw } from '../support/tsa/tsa-http.js';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs.js';

const QUERY = (): Buffer =>
  Buffer.from(
    AsnConvert.serialize(
      new TimeStampReq({
        version: 1,
        messageImprint: new MessageImprint({ hashAlgorithm: new AlgorithmIdentifier({ algorithm: '2.16.840.1.101.3.4.2.1' }), hashedMessage: new OctetString(randomBytes(32)) }),
        certReq: false,
      }),
    ),
  );

/** `count` tokens from the station at `base`, 16 requests at a time; their serial numbers in hex. */
async function serials(base: string, count: number): Promise<string[]> {
  const out: string[] = [];
  const worker = async (): Promise<void> => {
    while (out.length < count) {
      const reply = await postRaw(`${base}/api/timestamp/tsa`, QUERY(), { headers: { 'content-type': 'application/timestamp-query' } });
      expect(reply.status).toBe(200);
      out.push(Buffer.from(readTimestampReply(reply.body).tstInfo!.serialNumber).toString('hex'));
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return out;
}

/** The counter part of a serial: all but its 64 random bits (the last 16 hex digits). */
const counterOf = (serial: string): bigint => BigInt(`0x${serial.slice(0, -16) || '0'}`);

async function addTsaClient(dataDir: string): Promise<void> {
  expect((await runCli(['clients', 'add', '--client-id', 'tsa', '--allowed-ip', '127.0.0.1', '--data-dir', dataDir])).code).toBe(0);
}

describe('TSA serial numbers across a store that goes back', () => {
  const tempDir = tempDirsRemovedAfterEach('cli-serials-');

  it('never repeats one after kill -9 and a WAL cut in half, nor after a 0-byte store is refused and the station reset', async () => {
    const dataDir = await tempDir();
    await addTsaClient(dataDir);
    const issued: string[] = [];

    // Enough tokens for several serial reservations, each a commit in the WAL; then kill -9 and cut the WAL.
    const first = await startServe(['--port', '0', '--data-dir', dataDir]);
    issued.push(...(await serials(first.firstLine.replace('listening ', ''), 2600)));
    const killed = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await killed;
    const wal = join(dataDir, 'station.sqlite-wal');
    await truncate(wal, Math.floor((await stat(wal)).size / 2));

    const afterCut = await startServe(['--port', '0', '--data-dir', dataDir]);
    const cutSerials = await serials(afterCut.firstLine.replace('listening ', ''), 200);
    const stopped = new Promise((resolve) => afterCut.child.once('exit', resolve));
    afterCut.child.kill('SIGTERM');
    await stopped;
    // The store did go back: the counter handed out values it had handed out before the cut.
    const highest = issued.map(counterOf).reduce((a, b) => (a > b ? a : b));
    expect(cutSerials.some((serial) => counterOf(serial) <= highest)).toBe(true);
    issued.push(...cutSerials);

    await truncate(join(dataDir, 'station.sqlite'), 0);
    const refused = await runCli(['serve', '--port', '0', '--data-dir', dataDir]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('ERR_STORE_MISSING');
    expect((await runCli(['reset', '--yes', '--data-dir', dataDir])).code).toBe(0);
    await addTsaClient(dataDir);
    const afterReset = await startServe(['--port', '0', '--data-dir', dataDir]);
    const resetSerials = await serials(afterReset.firstLine.replace('listening ', ''), 200);
    const ended = new Promise((resolve) => afterReset.child.once('exit', resolve));
    afterReset.child.kill('SIGTERM');
    await ended;
    expect(resetSerials.some((serial) => counterOf(serial) <= highest)).toBe(true);
    issued.push(...resetSerials);

    expect(new Set(issued).size).toBe(issued.length);
  }, 120_000);
});
