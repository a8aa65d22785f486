import { HASH_ALGORITHMS, type HashAlgorithm, type HashAlgorithmInfo } from '../station/pki/hash-algorithms.js';

/** The CLI names hash algorithms as node:crypto and openssl do (sha256, ...): the choices of `--hash`/`--alg`. */
export const HASH_OPTION_VALUES = Object.fromEntries(Object.values(HASH_ALGORITHMS).map((info) => [info.nodeName, info.name])) as Readonly<
  Record<HashAlgorithmInfo['nodeName'], HashAlgorithm>
>;
