import { StationError, type StationErrorCode } from '../../core/errors/station-error.js';

/** The PKIFailureInfo reasons of RFC 3161 2.4.2 that the station answers with. */
export type PkiFailure =
  | 'badAlg'
  | 'badRequest'
  | 'badDataFormat'
  | 'timeNotAvailable'
  | 'unacceptedPolicy'
  | 'unacceptedExtension'
  | 'addInfoNotAvailable'
  | 'systemFailure';

/** PKIFailureInfo bit numbers, RFC 3161 2.4.2. */
export const PKI_FAILURE_BITS: Readonly<Record<PkiFailure, number>> = {
  badAlg: 0,
  badRequest: 2,
  badDataFormat: 5,
  timeNotAvailable: 14,
  unacceptedPolicy: 15,
  unacceptedExtension: 16,
  addInfoNotAvailable: 17,
  systemFailure: 25,
};

const CODES: Record<PkiFailure, Extract<StationErrorCode, `ERR_TSA_${string}`>> = {
  badAlg: 'ERR_TSA_BAD_ALG',
  badRequest: 'ERR_TSA_BAD_REQUEST',
  badDataFormat: 'ERR_TSA_BAD_DATA_FORMAT',
  timeNotAvailable: 'ERR_TSA_TIME_NOT_AVAILABLE',
  unacceptedPolicy: 'ERR_TSA_UNACCEPTED_POLICY',
  unacceptedExtension: 'ERR_TSA_UNACCEPTED_EXTENSION',
  addInfoNotAvailable: 'ERR_TSA_ADD_INFO_NOT_AVAILABLE',
  systemFailure: 'ERR_TSA_SYSTEM_FAILURE',
};

/**
 * A timestamp request the authority will not grant. The TSA boundary answers it as a TimeStampResp with
 * PKIStatus rejection, this failInfo and the message as statusString, never as an HTTP error.
 */
export class TsaRejection extends StationError {
  readonly failInfo: PkiFailure;

  constructor(failInfo: PkiFailure, message: string, options: { cause?: unknown } = {}) {
    super(CODES[failInfo], message, {
      status: failInfo === 'systemFailure' ? 500 : 400,
      retriable: failInfo === 'systemFailure' || failInfo === 'timeNotAvailable',
      details: { failInfo },
      ...options,
    });
    this.failInfo = failInfo;
  }
}
