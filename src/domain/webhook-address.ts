import ipaddr from 'ipaddr.js';

/**
 * Which addresses a webhook may be delivered to: public unicast only. Everything ipaddr.js puts
 * in a special range is refused (loopback, private, link-local, unique-local, carrier-grade NAT,
 * multicast, unspecified, broadcast, reserved and documentation ranges, and the IPv6 forms that
 * carry an IPv4 address to elsewhere: NAT64, 6to4, Teredo). An IPv4-mapped IPv6 address is judged
 * as the IPv4 address it maps; the deprecated IPv4-compatible form (::a.b.c.d) is refused. Cloud
 * metadata addresses fall in those ranges already and are also listed by name, so the refusal
 * says what they are.
 */

const METADATA = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, DigitalOcean, ...
  '169.254.170.2', // AWS ECS task metadata
  'fd00:ec2::254', // AWS over IPv6
  '100.100.100.200', // Alibaba Cloud
  '192.0.0.192', // Oracle Cloud
]);

/** Null when the address may be delivered to; else why not. `address` is a literal as dns.lookup gives it. */
export function addressRefusal(address: string): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return `${address} is not an IP address`;
  }
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  if (METADATA.has(ip.toString())) return `${address} is a cloud metadata address`;
  const range = ip.range();
  if (range !== 'unicast') return `${address} is in the ${range} range, not a public address`;
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)) {
    return `${address} is an IPv4-compatible IPv6 address (deprecated), not a public address`;
  }
  return null;
}

/** An IP literal (v4 or v6, no brackets) or null for a host name. */
export function ipLiteral(host: string): string | null {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return ipaddr.isValid(bare) && (ipaddr.IPv4.isValidFourPartDecimal(bare) || bare.includes(':')) ? bare : null;
}
