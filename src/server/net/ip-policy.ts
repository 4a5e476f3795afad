import ipaddr from 'ipaddr.js';

/**
 * Which addresses a user-given URL may reach (reliability U5): public
 * unicast only. Loopback, RFC 1918, link-local (169.254/16, fe80::/10),
 * CGNAT 100.64/10, 0.0.0.0/8, multicast, broadcast, documentation and
 * reserved ranges, unique-local fc00::/7 and every IPv6 form that embeds an
 * IPv4 address (mapped ::ffff:a.b.c.d is judged as the IPv4 inside it;
 * compatible ::a.b.c.d, NAT64, 6to4 and Teredo are refused outright).
 */
export function isPublicAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  // Only the canonical textual forms: node's resolver and the URL parser
  // hand us those; anything odd (octal, short forms) is not trusted here.
  if (!ipaddr.IPv4.isValidFourPartDecimal(bare) && !ipaddr.IPv6.isValid(bare)) return false;
  let addr: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(bare);
  if (addr.kind() === 'ipv6') {
    const v6 = addr as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) {
      addr = v6.toIPv4Address();
    } else if (v6.parts.slice(0, 6).every((p) => p === 0)) {
      // ::/96 — unspecified, loopback, and deprecated IPv4-compatible addresses.
      return false;
    }
  }
  return addr.range() === 'unicast';
}

/** One address in one canonical text form, so allowlist entries and resolved addresses compare equal. */
export function canonicalAddress(ip: string): string | null {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.IPv4.isValidFourPartDecimal(bare) && !ipaddr.IPv6.isValid(bare)) return null;
  return ipaddr.process(bare).toString();
}

/**
 * `127.0.0.1:4010` or `[::1]:4010` -> canonical address and port. Host names
 * and entries without a port give null: an allowance for private addresses
 * must name exactly one address and one port.
 */
export function parseAddressPort(entry: string): { address: string; port: number } | null {
  const m = /^\[([^\]]+)\]:(\d{1,5})$/.exec(entry) ?? /^([^:[\]]+):(\d{1,5})$/.exec(entry);
  const address = m ? canonicalAddress(m[1]!) : null;
  const port = m ? Number(m[2]) : 0;
  if (!address || port < 1 || port > 65535) return null;
  return { address, port };
}
