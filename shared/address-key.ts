import ipaddr from 'ipaddr.js';

/**
 * How much of an IPv6 client address a per-address limit counts as one client (its prefix length, in bits): what one
 * subscriber holds. 64 by default (a /64 is the least one is handed); an operator whose readers' providers hand each a
 * /56 or /48 sets it shorter (CLIENT_IPV6_PREFIX), within these bounds: a whole group of 16 bits, or a part of one.
 */
export const IPV6_PREFIX = { default: 64, min: 32, max: 64 } as const;

/** The 16-bit groups of an IPv6 address of which `ipv6Prefix` keeps at least one bit. */
const groupsKept = (ipv6Prefix: number) => Math.ceil(ipv6Prefix / 16);

/**
 * The key a per-address limit counts a client address by: an IPv4 address (or an IPv4-mapped IPv6 one,
 * `::ffff:a.b.c.d`, as a dual-stack socket reports an IPv4 peer) by itself; an IPv6 address by its prefix of
 * `ipv6Prefix` bits (IPV6_PREFIX), written `2001:db8::/64`, whatever the address's spelling or zone id. One subscriber
 * holds a whole prefix, and would otherwise pass any limit by rotating the bits after it. Something that is not an
 * address (none known) is its own key. Where an address is shown or stored as an address (logs, a user's last address,
 * a record's ip column), the full address is kept; only the counting uses this.
 */
export function addressKey(address: string, ipv6Prefix: number): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const kept = groupsKept(ipv6Prefix);
  const parts = (parsed as ipaddr.IPv6).parts.map((group, i) =>
    i < kept - 1 ? group : i === kept - 1 ? group & (0xffff << (kept * 16 - ipv6Prefix)) : 0,
  );
  return `${new ipaddr.IPv6(parts).toString()}/${ipv6Prefix}`;
}

/**
 * The text that every address of `address`'s IPv6 prefix (addressKey) starts with when written as sockets and proxies
 * write addresses (RFC 5952: lower case, no leading zeros, the longest run of two or more zero groups as `::`): its
 * whole groups up to the first that may begin such a run, each followed by `:` (`2001:db8:0:1:` for 2001:db8:0:1::/64,
 * `2001:db8:` for 2001:db8::/64; a group the prefix ends inside is left out, its text having no fixed start).
 * Undefined for an IPv4 client (addressKey) or when no such group is left. A database reads the rows that may be from
 * the client by it, then counts those of the same addressKey.
 */
export function ipv6PrefixText(address: string, ipv6Prefix: number): string | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return undefined;
  const groups = (parsed as ipaddr.IPv6).parts.slice(0, Math.floor(ipv6Prefix / 16));
  const last = groups.length - 1;
  const runStart = groups.findIndex((group, i) => group === 0 && (i === last || groups[i + 1] === 0));
  const fixed = runStart < 0 ? groups : groups.slice(0, runStart);
  return fixed.length ? fixed.map((group) => `${group.toString(16)}:`).join('') : undefined;
}
