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
