import type { SignatureEngine } from '../signing/signature-engine.js';

/**
 * The signing engines (PAdES, ASiC-E/XAdES, CMS and their PKI, XML and ZIP libraries: about a third of the
 * station's code) load with the first signature instead of at every start.
 */
export async function loadSignatureEngine(): Promise<typeof SignatureEngine> {
  return (await import('../signing/signature-engine.js')).SignatureEngine;
}
