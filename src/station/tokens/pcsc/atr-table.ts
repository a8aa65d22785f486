import { atrMappingSchema, type AtrMapping, type AtrMappingInput } from '../../../core/schemas/atr-mapping.js';

/** Debian/Ubuntu path; other systems pass `openscModule`. */
export const DEFAULT_OPENSC_MODULE = '/usr/lib/x86_64-linux-gnu/opensc-pkcs11.so';

/** "3B 8A 80 ..." as users read it in pcsc_scan and in the station's messages. */
export function formatAtr(atr: Uint8Array): string {
  return Buffer.from(atr).toString('hex').toUpperCase().replace(/(..)(?=.)/g, '$1 ');
}

function builtInMappings(openscModule: string): AtrMappingInput[] {
  const opensc = { kind: 'pkcs11', module: openscModule } as const;
  return [
    // The station's own national-ID-style card profile (tests/cards emulates it), in both length variants.
    { atr: '3B 87 80 01 53 53 54 45 49 44 01 1B', name: 'Signing Station eID', driver: { kind: 'apdu', driver: 'national-id', extendedLength: true } },
    { atr: '3B 87 80 01 53 53 54 45 49 44 02 18', name: 'Signing Station eID (short APDUs)', driver: { kind: 'apdu', driver: 'national-id', extendedLength: false } },
    // PIV cards of the station's test family: the last historical byte is a version, the TCK follows it.
    { atr: '3B 87 80 01 53 53 54 50 49 56 00 00', mask: 'FF FF FF FF FF FF FF FF FF FF 00 00', name: 'PIV card', driver: opensc },
    // Cards OpenSC serves; ATRs from pcsc-tools' smartcard_list.txt.
    { atr: '3B DB 96 00 80 B1 FE 45 1F 83 00 12 23 3F 53 65 49 44 0F 90 00 F1', name: 'Estonian ID card (2018)', driver: opensc },
    { atr: '3B FD 13 00 00 81 31 FE 15 80 73 C0 21 C0 57 59 75 62 69 4B 65 79 40', name: 'YubiKey 5 (PIV)', driver: opensc },
    { atr: '3B F8 13 00 00 81 31 FE 15 59 75 62 69 6B 65 79 34 D4', name: 'YubiKey 4 (PIV)', driver: opensc },
  ];
}

/**
 * Chooses a card's driver from its ATR: the user's mappings first (so configuration can override a built-in
 * entry), then the built-in ones; exact and masked entries alike, first match wins.
 */
export class AtrTable {
  private readonly entries: { mapping: AtrMapping; atr: Buffer; mask: Buffer }[];

  /** Throws a ZodError naming the bad entry when a configured mapping is malformed. */
  constructor(configured: readonly AtrMappingInput[] = [], options: { openscModule?: string; builtIns?: boolean } = {}) {
    const all = [...configured, ...(options.builtIns === false ? [] : builtInMappings(options.openscModule ?? DEFAULT_OPENSC_MODULE))];
    this.entries = all.map((input) => {
      const mapping = atrMappingSchema.parse(input);
      const atr = Buffer.from(mapping.atr, 'hex');
      return { mapping, atr, mask: mapping.mask === undefined ? Buffer.alloc(atr.length, 0xff) : Buffer.from(mapping.mask, 'hex') };
    });
  }

  match(atr: Uint8Array): AtrMapping | undefined {
    return this.entries.find((e) => e.atr.length === atr.length && e.atr.every((byte, i) => (byte & e.mask[i]!) === (atr[i]! & e.mask[i]!)))?.mapping;
  }
}
