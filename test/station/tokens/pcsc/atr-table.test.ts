import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { AtrTable, DEFAULT_OPENSC_MODULE, formatAtr } from '../../../../src/station/tokens/pcsc/atr-table.js';
import { UnknownCardError } from '../../../../src/station/tokens/pcsc/pcsc-errors.js';
import { NATIONAL_ID_ATR_EXTENDED, NATIONAL_ID_ATR_SHORT } from '../../../cards/national-id-card.js';
import { PIV_ATR } from '../../../cards/piv-card.js';
import { buildAtr } from '../../../cards/build-atr.js';

describe('ATR table', () => {
  const table = new AtrTable();

  it('maps the eID card variants exactly, with their APDU length capability', () => {
    expect(table.match(NATIONAL_ID_ATR_EXTENDED)?.driver).toEqual({ kind: 'apdu', driver: 'national-id', extendedLength: true });
    expect(table.match(NATIONAL_ID_ATR_SHORT)?.driver).toEqual({ kind: 'apdu', driver: 'national-id', extendedLength: false });
  });

  it('matches a masked family entry whatever its version byte, to the OpenSC module', () => {
    expect(table.match(PIV_ATR)?.driver).toEqual({ kind: 'pkcs11', module: DEFAULT_OPENSC_MODULE });
    expect(table.match(buildAtr(Buffer.from('535354504956ff', 'hex')))?.name).toBe('PIV card');
    expect(table.match(buildAtr(Buffer.from('535354504957ff', 'hex')))).toBeUndefined();
  });

  it('knows real cards OpenSC serves', () => {
    expect(table.match(Buffer.from('3BDB960080B1FE451F830012233F536549440F9000F1', 'hex'))?.name).toBe('Estonian ID card (2018)');
  });

  it('lets configuration override a built-in entry and add new ones; rejects malformed entries', () => {
    const configured = new AtrTable([{ atr: formatAtr(PIV_ATR), name: 'Vendor PIV', driver: { kind: 'pkcs11', module: '/opt/vendor/lib.so' } }]);
    expect(configured.match(PIV_ATR)).toMatchObject({ name: 'Vendor PIV', driver: { module: '/opt/vendor/lib.so' } });
    expect(configured.match(NATIONAL_ID_ATR_SHORT)?.name).toBe('Signing Station eID (short APDUs)');
    expect(() => new AtrTable([{ atr: '3B XX', name: 'bad', driver: { kind: 'pkcs11', module: 'x' } }])).toThrow(ZodError);
    expect(() => new AtrTable([{ atr: '3B 00', mask: 'FF', name: 'bad', driver: { kind: 'pkcs11', module: 'x' } }])).toThrow(ZodError);
  });

  it('names an unknown ATR and how to map it', () => {
    const atr = buildAtr(Buffer.from('0102', 'hex'));
    expect(table.match(atr)).toBeUndefined();
    const error = new UnknownCardError(formatAtr(atr));
    expect(error.message).toContain('3B 82 80 01 01 02');
    expect(error.message).toContain('pcsc.atrMap');
    expect(error).toMatchObject({ code: 'ERR_PCSC_UNKNOWN_CARD', retriable: false });
  });
});
