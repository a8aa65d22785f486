import type { SignatureBaseline } from '../../core/schemas/signature-baseline.js';
import type { StampLanguage } from '../../core/schemas/stamp-language.js';
import type { StationConfig } from '../../station/config/station-config.js';
import type { StationData } from '../../station/open-station-data.js';
import type { SignatureFormat } from '../../station/signing/signature-engine.js';
import type { ViewerRect } from '../../station/signing/pdf/signature-placement.js';
import type { DocumentSigner } from '../../station/signing/signing-options.js';
import type { ProgressReporter } from '../progress/progress-reporter.js';
import type { StationOptionValues } from '../station-options.js';
import type { TokenSourceFlags } from './tokens-sources.js';

export interface SignCommandOptions extends StationOptionValues, TokenSourceFlags {
  out?: string;
  format?: SignatureFormat;
  pkcs12?: string;
  pinStdin?: boolean;
  reason?: string;
  visible?: boolean;
  /** Visible PDF signature: 1-based page. */
  page?: number;
  /** Visible PDF signature: the box in viewer-space points (parsed from `--rect x1,y1,x2,y2`). */
  rect?: ViewerRect;
  /** Visible PDF signature: the labels' language (`--stamp-language`). */
  stampLanguage?: StampLanguage;
  tsa?: string;
  timestamp: boolean;
  baseline?: SignatureBaseline;
  force?: boolean;
  token?: string;
  cert?: string;
}

/** A signer for one `sign` run. `release` ends its hold on the key: token session, PIN copy, key bytes. */
export interface ResolvedSigner extends DocumentSigner {
  /** How it signs, for the audit log: `pkcs12`, or the token's kind (`pkcs11`, `pcsc`, `store`, ...). */
  method: string;
  release(): Promise<void>;
}

/** What a resolver may use: the open data directory, the config, stdin's first line, and the progress line. */
export interface SignerContext {
  data: StationData;
  config: StationConfig;
  /** The first line of stdin (`--pin-stdin`); the caller zeroes it. */
  readSecret: () => Promise<Buffer>;
  progress: ProgressReporter;
}

/**
 * Finds the signer the options name; whatever it returns signs hashes through the HashSigner contract, so the
 * formats cannot tell a PKCS#12 file from a token or a card.
 */
export type SignerResolver = (options: SignCommandOptions, context: SignerContext) => Promise<ResolvedSigner>;
