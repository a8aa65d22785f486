import type { SignatureBaseline } from '../../core/schemas/signature-baseline.js';
import type { SignatureFormat } from '../../station/signing/signature-engine.js';
import type { DocumentSigner } from '../../station/signing/signing-options.js';
import type { StationOptionValues } from '../station-options.js';
import type { TokenSourceFlags } from './tokens-sources.js';

export interface SignCommandOptions extends StationOptionValues, TokenSourceFlags {
  out: string;
  format?: SignatureFormat;
  pkcs12?: string;
  pinStdin?: boolean;
  reason?: string;
  visible?: boolean;
  tsa?: string;
  timestamp: boolean;
  baseline?: SignatureBaseline;
  force?: boolean;
  token?: string;
  cert?: string;
}

/** A signer for one `sign` run. `release` ends its hold on the key: token session, PIN copy, key bytes, data store. */
export interface ResolvedSigner extends DocumentSigner {
  release(): Promise<void>;
}

/**
 * Finds the signer the options name; whatever it returns signs hashes through the HashSigner contract, so the
 * formats cannot tell a PKCS#12 file from a token or a card. `readSecret` reads the password or PIN from stdin.
 */
export type SignerResolver = (options: SignCommandOptions, readSecret: () => Promise<Buffer>) => Promise<ResolvedSigner>;
