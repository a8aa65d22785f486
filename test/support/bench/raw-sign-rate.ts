import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

export interface RawSignRate {
  perCpuSecond: number;
  perWallSecond: number;
}

/**
 * The baseline of the TSA and OIDC benchmarks: RSA-2048 `crypto.sign` (SHA-256, a KeyObject) on one thread, for
 * `seconds`. The machine is shared (2 cores, other jobs), so the rate is given per CPU-second of this process as
 * well as per wall-clock second.
 */
export function rawSignRate(seconds = 2): RawSignRate {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const data = randomBytes(150); // about the size of a token's signed attributes
  for (let i = 0; i < 200; i++) sign('sha256', data, privateKey);
  let count = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) {
    sign('sha256', data, privateKey);
    count++;
  }
  const used = process.cpuUsage(cpu);
  return { perCpuSecond: count / ((used.user + used.system) / 1e6), perWallSecond: count / ((performance.now() - start) / 1000) };
}

/**
 * `run` between two baselines, with their mean: this machine's speed drifts by several per cent within a minute,
 * and a baseline taken on one side of the run only carries that drift into the ratio.
 */
export async function rawSignRateAround<T>(run: () => Promise<T>): Promise<{ result: T; before: RawSignRate; after: RawSignRate; mean: RawSignRate }> {
  const before = rawSignRate();
  const result = await run();
  const after = rawSignRate();
  const mean = { perCpuSecond: (before.perCpuSecond + after.perCpuSecond) / 2, perWallSecond: (before.perWallSecond + after.perWallSecond) / 2 };
  return { result, before, after, mean };
}
