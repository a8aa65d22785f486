import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];
const MAX_DECISIONS = 256;

/**
 * A client's "Allowed IP addresses" (docs/service-interface.md#timestamping): single IPv4/IPv6 addresses and CIDR
 * ranges. IPv4-mapped IPv6 forms (::ffff:192.0.2.1, what a dual-stack socket reports for IPv4 callers) are compared as
 * the IPv4 address they carry, on both sides. Entries that do not parse strictly (no "127.1" shorthands) match nothing:
 * a typo never widens access.
 */
export class TsaIpAllowlist {
  readonly #ranges: readonly Range[];
  /** Decisions by caller address: a client calls from few addresses, and parsing one costs more than the lookup. */
  readonly #decided = new Map<string, boolean>();

  constructor(entries: readonly string[]) {
    this.#ranges = entries.flatMap((entry) => {
      const range = parseEntry(entry.trim());
      return range ? [range] : [];
    });
  }

  allows(remoteAddress: string | undefined): boolean {
    if (remoteAddress === undefined) return false;
    let allowed = this.#decided.get(remoteAddress);
    if (allowed === undefined) {
      const address = parseAddress(remoteAddress);
      allowed = address !== undefined && this.#ranges.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits));
      if (this.#decided.size >= MAX_DECISIONS) this.#decided.clear();
      this.#decided.set(remoteAddress, allowed);
    }
    return allowed;
  }
}

function parseAddress(text: string): Address | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (!ipaddr.IPv6.isValid(text)) return undefined;
  const v6 = ipaddr.IPv6.parse(text);
  return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
}

function parseEntry(entry: string): Range | undefined {
  if (!entry.includes('/')) {
    const address = parseAddress(entry);
    return address ? [address, address.kind() === 'ipv4' ? 32 : 128] : undefined;
  }
  if (ipaddr.IPv4.isValidCIDRFourPartDecimal(entry)) return ipaddr.IPv4.parseCIDR(entry);
  if (!ipaddr.IPv6.isValidCIDR(entry)) return undefined;
  const [network, bits] = ipaddr.IPv6.parseCIDR(entry);
  if (network.isIPv4MappedAddress()) return bits >= 96 ? [network.toIPv4Address(), bits - 96] : undefined;
  return [network, bits];
}
