import ipaddr from 'ipaddr.js';

/**
 * The key a per-address limit counts a client address by: an IPv4 address (or an IPv4-mapped IPv6 one,
 * `::ffff:a.b.c.d`, as a dual-stack socket reports an IPv4 peer) by itself; an IPv6 address by its /64, written
 * `2001:db8::/64`, whatever the address's spelling or zone id. One subscriber usually holds a whole /64, and would
 * otherwise pass any limit by rotating the low 64 bits. Something that is not an address (none known) is its own key.
 * Where an address is shown or stored as an address (logs, a user's last address, a record's ip column), the full
 * address is kept; only the counting uses this.
 */
export function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts;
  return `${new ipaddr.IPv6([...parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}

/**
 * The text that every address of `address`'s IPv6 /64 starts with when written as sockets and proxies write addresses
 * (RFC 5952: lower case, no leading zeros, the longest run of two or more zero groups as `::`): its groups up to the
 * first that may begin such a run, each followed by `:` (`2001:db8:0:1:` for 2001:db8:0:1::/64, `2001:db8:` for
 * 2001:db8::/64). Undefined for an IPv4 client (addressKey) or when the /64 starts with such a run. A database reads
 * the rows that may be from the client by it, then counts those of the same addressKey.
 */
export function ipv6PrefixText(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return undefined;
  const groups = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  const runStart = groups.findIndex((group, i) => group === 0 && (i === 3 || groups[i + 1] === 0));
  const fixed = runStart < 0 ? groups : groups.slice(0, runStart);
  return fixed.length ? fixed.map((group) => `${group.toString(16)}:`).join('') : undefined;
}
