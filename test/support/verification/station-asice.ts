import { AsiceEngine, type AsiceDataFile } from '../../../src/station/signing/asice-engine.js';
import { softKeySigner } from '../../../src/station/signing/soft-key-signer.js';
import type { TimestampClient } from '../../../src/station/tsa/timestamp-client.js';

/**
 * The station's own ASiC-E signature by a soft key: a new container over `input`'s files, or one more signature on
 * an existing container; timestamped when a client is given. Returns `output`.
 */
export async function stationAsice(
  input: string | readonly AsiceDataFile[],
  output: string,
  signer: { der: Uint8Array; pkcs8: Uint8Array },
  timestampClient?: TimestampClient,
): Promise<string> {
  const prepared = await AsiceEngine.prepare(input, { certificate: signer.der });
  const value = await softKeySigner(signer.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), prepared.digestAlgorithm);
  await AsiceEngine.finish(prepared.state, value, { outputPath: output, ...(timestampClient ? { timestampClient } : {}) });
  return output;
}
