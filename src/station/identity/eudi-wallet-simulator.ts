import { randomBytes } from 'node:crypto';
import type { Clock } from '../ports/clock.js';
import { IdentityError } from './identity-error.js';
import type { IdentityMethod } from './identity-method.js';
import { WALLET_IDENTITIES } from './sandbox-identities.js';
import { sandboxUser } from './sandbox-user.js';
import type { SandboxTimings } from './sandbox-timings.js';

export const EUDI_WALLET_METHOD = 'at-eudi-wallet-login';

/**
 * Austrian EUDI wallet login, simulated: start answers with the OpenID4VP request the user's wallet would scan;
 * the sandbox wallet presents the PID of the chosen test holder (idcode, default the first) after a delay. The
 * result carries the PID as OpenID Identity Assurance verified_claims; the verification names the sandbox issuer.
 */
export function eudiWalletSimulator(timings: SandboxTimings, issuerName: string, clock: Clock): IdentityMethod {
  return {
    code: EUDI_WALLET_METHOD,
    label: 'EUDI wallet, Austria (sandbox)',
    kind: 'sandbox',
    inputs: [],
    async begin(request) {
      const holder = request.idcode ? WALLET_IDENTITIES.find((candidate) => candidate.person.idcode === request.idcode) : WALLET_IDENTITIES[0];
      if (!holder?.pid) {
        throw new IdentityError('ERR_IDENTITY_ACCOUNT_NOT_FOUND', `No sandbox wallet holds a PID for ${request.idcode} (see docs/sandbox-identities.md).`, { status: 404 });
      }
      const requestId = randomBytes(16).toString('base64url');
      const qrCode = `openid4vp://?client_id=${encodeURIComponent(issuerName)}&request_uri=${encodeURIComponent(`urn:sandbox:presentation:${requestId}`)}`;
      const pid = holder.pid;
      return sandboxUser(
        holder.behaviour,
        timings,
        () => ({
          ...holder.person,
          current_login_method: EUDI_WALLET_METHOD,
          verified_claims: {
            verification: {
              trust_framework: 'eidas',
              assurance_level: 'high',
              time: clock.now().toISOString(),
              evidence: [{ type: 'electronic_record', record: { type: 'eudi_pid', source: { name: 'Signing Station sandbox PID provider', country_code: 'AT' } } }],
            },
            claims: pid,
          },
        }),
        { qr_code: qrCode, redirect_uri: qrCode },
      );
    },
  };
}
