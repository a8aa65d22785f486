import pkcs11js from 'pkcs11js';
import type { SignatureScheme } from '../token.js';

/**
 * The raw mechanisms the station signs a precomputed hash with (pkcs11SignOperation), by the scheme each makes.
 * Hash-and-sign mechanisms (CKM_SHA256_RSA_PKCS_PSS, ...) would hash the hash again: a key allowed only those
 * cannot sign here.
 */
const RAW_RSA_MECHANISMS: ReadonlyArray<readonly [SignatureScheme, number]> = [
  ['RSASSA-PKCS1-v1_5', pkcs11js.CKM_RSA_PKCS],
  ['RSA-PSS', pkcs11js.CKM_RSA_PKCS_PSS],
];

/** CK_ULONG: `unsigned long`, 4 bytes on Windows (LLP64), 8 on Linux and macOS (LP64). */
const CK_ULONG_BYTES = process.platform === 'win32' ? 4 : 8;

/** The raw RSA mechanisms a slot can sign with (C_GetMechanismList, CKF_SIGN in C_GetMechanismInfo). */
export function slotRsaSigningMechanisms(library: pkcs11js.PKCS11, slot: pkcs11js.Handle): Set<number> {
  const listed = new Set(library.C_GetMechanismList(slot));
  return new Set(
    RAW_RSA_MECHANISMS.map(([, mechanism]) => mechanism).filter((mechanism) => listed.has(mechanism) && (library.C_GetMechanismInfo(slot, mechanism).flags & pkcs11js.CKF_SIGN) !== 0),
  );
}

/**
 * The schemes an RSA key can sign with on this slot: those whose raw mechanism the slot signs with and the key's
 * CKA_ALLOWED_MECHANISMS (absent or empty: any) permits. Undefined when that is every RSA scheme, the usual case,
 * so only a restriction is reported.
 */
export function rsaKeySchemes(allowedMechanisms: Buffer | undefined, slotMechanisms: ReadonlySet<number>): SignatureScheme[] | undefined {
  const allowed = allowedMechanisms?.length ? new Set(ulongArray(allowedMechanisms)) : undefined;
  const schemes = RAW_RSA_MECHANISMS.filter(([, mechanism]) => slotMechanisms.has(mechanism) && (allowed === undefined || allowed.has(mechanism))).map(([scheme]) => scheme);
  return schemes.length === RAW_RSA_MECHANISMS.length ? undefined : schemes;
}

function ulongArray(value: Buffer): number[] {
  const numbers: number[] = [];
  for (let offset = 0; offset + CK_ULONG_BYTES <= value.length; offset += CK_ULONG_BYTES) {
    numbers.push(CK_ULONG_BYTES === 8 ? Number(value.readBigUInt64LE(offset)) : value.readUInt32LE(offset));
  }
  return numbers;
}
