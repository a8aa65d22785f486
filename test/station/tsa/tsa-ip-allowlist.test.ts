import { describe, expect, it } from 'vitest';
import { TsaIpAllowlist } from '../../../src/station/tsa/tsa-ip-allowlist.js';

describe('TsaIpAllowlist', () => {
  it('matches single IPv4 and IPv6 addresses exactly', () => {
    const list = new TsaIpAllowlist(['192.0.2.10', '2001:db8::1']);
    expect(list.allows('192.0.2.10')).toBe(true);
    expect(list.allows('192.0.2.11')).toBe(false);
    expect(list.allows('2001:db8::1')).toBe(true);
    expect(list.allows('2001:0db8:0000:0000:0000:0000:0000:0001')).toBe(true);
    expect(list.allows('2001:db8::2')).toBe(false);
  });

  it('matches CIDR ranges of both families, and never across families', () => {
    const list = new TsaIpAllowlist(['10.0.0.0/8', '2001:db8:abcd::/48']);
    expect(list.allows('10.255.1.2')).toBe(true);
    expect(list.allows('11.0.0.1')).toBe(false);
    expect(list.allows('2001:db8:abcd:ffff::5')).toBe(true);
    expect(list.allows('2001:db8:abce::5')).toBe(false);
    expect(new TsaIpAllowlist(['::/0']).allows('10.0.0.1')).toBe(false);
    expect(new TsaIpAllowlist(['0.0.0.0/0']).allows('2001:db8::1')).toBe(false);
  });

  it('treats IPv4-mapped IPv6 addresses as the IPv4 address they carry, on both sides', () => {
    expect(new TsaIpAllowlist(['192.0.2.10']).allows('::ffff:192.0.2.10')).toBe(true);
    expect(new TsaIpAllowlist(['10.0.0.0/8']).allows('::ffff:10.1.2.3')).toBe(true);
    expect(new TsaIpAllowlist(['::ffff:192.0.2.10']).allows('192.0.2.10')).toBe(true);
    expect(new TsaIpAllowlist(['::ffff:10.0.0.0/104']).allows('10.9.9.9')).toBe(true);
    expect(new TsaIpAllowlist(['::ffff:10.0.0.0/104']).allows('11.9.9.9')).toBe(false);
    expect(new TsaIpAllowlist(['192.0.2.10']).allows('::ffff:192.0.2.11')).toBe(false);
  });

  it('lets malformed or shorthand entries match nothing rather than something wider', () => {
    const list = new TsaIpAllowlist(['127.1', '10', 'not-an-ip', '10.0.0.0/33', '1.2.3.4/-1', '']);
    for (const address of ['127.0.0.1', '0.0.0.10', '10.0.0.1', '1.2.3.4']) expect(list.allows(address), address).toBe(false);
  });

  it('refuses everything when empty or when the peer address is unknown or malformed', () => {
    expect(new TsaIpAllowlist([]).allows('127.0.0.1')).toBe(false);
    expect(new TsaIpAllowlist(['127.0.0.1']).allows(undefined)).toBe(false);
    expect(new TsaIpAllowlist(['127.0.0.1']).allows('127.1')).toBe(false);
    expect(new TsaIpAllowlist(['0.0.0.0/0']).allows('garbage')).toBe(false);
  });
});
