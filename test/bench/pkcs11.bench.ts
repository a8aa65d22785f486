// Per-signature overhead of the PKCS#11 bridge (Pkcs11Token.sign: key lookup by CKA_ID, mechanism, DigestInfo,
// C_SignInit + C_SignAsync on libuv's pool, per-token queue) over a bare pkcs11js C_SignInit + C_Sign on the same
// SoftHSM key with a session already logged in. Target: under 2 ms added per signature.
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pkcs11js from 'pkcs11js';
import { createPkcs11TokenSource } from '../../src/station/tokens/pkcs11/create-pkcs11-token-source.js';
import { encodeDigestInfo } from '../../src/station/pki/digest-info.js';
import { createSoftHsm, SOFTHSM_MODULE } from '../support/pkcs11/pkcs11-softhsm.js';
import { medianAndSpread } from '../support/bench/median-and-spread.js';

const PIN = '1234';
const ROUNDS = 3;
const COUNT = { rsa: 300, ec: 1000 } as const;
const hash = createHash('sha256').update('benchmark').digest();

const softhsm = await createSoftHsm();
await softhsm.createToken('Bench', PIN, [
  { id: '01', algorithm: 'RSA-2048', usage: 'signing' },
  { id: '02', algorithm: 'P-256', usage: 'signing' },
]);

type Kind = keyof typeof COUNT;
const input: Record<Kind, { mechanism: number; data: Buffer; id: string }> = {
  rsa: { mechanism: pkcs11js.CKM_RSA_PKCS, data: Buffer.from(encodeDigestInfo('SHA-256', hash)), id: '01' },
  ec: { mechanism: pkcs11js.CKM_ECDSA, data: hash, id: '02' },
};

/** Bare pkcs11js: one logged-in session, the key handle found once, then only C_SignInit + C_Sign (or its async form). */
async function bare(kind: Kind, async: boolean): Promise<number> {
  const library = new pkcs11js.PKCS11();
  library.load(SOFTHSM_MODULE);
  library.C_Initialize();
  try {
    const slot = library.C_GetSlotList(true).find((s) => library.C_GetTokenInfo(s).label.trim() === 'Bench')!;
    const session = library.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION);
    library.C_Login(session, pkcs11js.CKU_USER, PIN);
    library.C_FindObjectsInit(session, [
      { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY },
      { type: pkcs11js.CKA_ID, value: Buffer.from(input[kind].id, 'hex') },
    ]);
    const key = library.C_FindObjects(session)!;
    library.C_FindObjectsFinal(session);
    const { mechanism, data } = input[kind];
    const sign = async () => {
      library.C_SignInit(session, { mechanism }, key);
      return async ? library.C_SignAsync(session, data, Buffer.alloc(512)) : library.C_Sign(session, data, Buffer.alloc(512));
    };
    for (let i = 0; i < 20; i++) await sign();
    const started = performance.now();
    for (let i = 0; i < COUNT[kind]; i++) await sign();
    return (performance.now() - started) / COUNT[kind];
  } finally {
    library.C_Finalize();
    library.close();
  }
}

async function bridge(kind: Kind): Promise<number> {
  const source = createPkcs11TokenSource({
    includeKnown: false,
    modules: [{ path: SOFTHSM_MODULE, name: 'SoftHSM', kind: 'pkcs11', origin: 'config' }],
    pollIntervalMs: 60_000,
  });
  await source.start();
  try {
    const token = source.tokens().find((t) => t.label === 'Bench')!;
    const request = {
      certificateId: input[kind].id,
      hash,
      hashAlgorithm: 'SHA-256' as const,
      scheme: kind === 'rsa' ? ('RSASSA-PKCS1-v1_5' as const) : ('ECDSA' as const),
      pin: async () => new TextEncoder().encode(PIN),
      purpose: 'sign' as const,
    };
    for (let i = 0; i < 20; i++) await token.sign(request);
    const started = performance.now();
    for (let i = 0; i < COUNT[kind]; i++) await token.sign(request);
    return (performance.now() - started) / COUNT[kind];
  } finally {
    await source.stop();
  }
}

const median = (values: number[]): number => medianAndSpread(values).median;
const ms = (value: number) => `${value.toFixed(3)} ms`;

let worst = 0;
for (const kind of ['rsa', 'ec'] as const) {
  const sync: number[] = [];
  const async: number[] = [];
  const bridged: number[] = [];
  // Interleaved rounds so that drift (CPU frequency, other load) hits baseline and bridge alike.
  for (let round = 0; round < ROUNDS; round++) {
    sync.push(await bare(kind, false));
    async.push(await bare(kind, true));
    bridged.push(await bridge(kind));
  }
  const overhead = median(bridged) - median(sync);
  worst = Math.max(worst, overhead);
  console.log(
    `${kind === 'rsa' ? 'RSA-2048 PKCS#1' : 'ECDSA P-256    '}  baseline bare C_Sign ${ms(median(sync))}/sig` +
      ` · bare C_SignAsync ${ms(median(async))}/sig · bridge ${ms(median(bridged))}/sig` +
      ` · ratio ${(median(bridged) / median(sync)).toFixed(2)}x · added ${ms(overhead)} per signature (target < 2 ms)`,
  );
}
await softhsm.dispose();
if (worst >= 2) {
  console.error(`FAIL: the bridge adds ${ms(worst)} per signature`);
  process.exit(1);
}
