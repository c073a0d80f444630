import { describe, expect, it } from 'vitest';
import { IPV6_PREFIX, addressKey as keyOf, ipv6PrefixText as prefixTextOf } from '../../shared/address-key';

// The default rule: an IPv6 client by its /64.
const addressKey = (address: string) => keyOf(address, IPV6_PREFIX.default);
const ipv6PrefixText = (address: string) => prefixTextOf(address, IPV6_PREFIX.default);

describe('addressKey', () => {
  it('keys an IPv4 address by itself', () => {
    expect(addressKey('198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('198.51.100.8')).toBe('198.51.100.8');
  });

  it('keys an IPv4-mapped IPv6 address by its IPv4 address, in either spelling', () => {
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('::FFFF:198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('::ffff:c633:6407')).toBe('198.51.100.7');
    expect(addressKey('0:0:0:0:0:ffff:198.51.100.7')).toBe('198.51.100.7');
  });

  it('keys an IPv6 address by its /64, whatever the low 64 bits', () => {
    expect(addressKey('2001:db8::1')).toBe('2001:db8::/64');
    expect(addressKey('2001:db8::2')).toBe('2001:db8::/64');
    expect(addressKey('2001:db8::ffff:ffff:ffff:ffff')).toBe('2001:db8::/64');
    expect(addressKey('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:db8:aa:bb:cc:dd:ee:ff')).toBe('2001:db8:aa:bb::/64');
    expect(addressKey('::1')).toBe('::/64');
  });

  it('keys every spelling of an IPv6 address alike: expanded, compressed, upper case, with a zone id', () => {
    const spellings = [
      '2001:0db8:0000:0000:0000:0000:0000:0001',
      '2001:db8:0:0:0:0:0:1',
      '2001:DB8::1',
      '2001:db8:0::1',
      'fe80::1%eth0',
    ];
    expect(spellings.map((spelling) => addressKey(spelling))).toEqual([
      '2001:db8::/64',
      '2001:db8::/64',
      '2001:db8::/64',
      '2001:db8::/64',
      'fe80::/64',
    ]);
    expect(addressKey('fe80::1%eth0')).toBe(addressKey('fe80::2%eth1'));
  });

  it('keeps what is no address as it is', () => {
    expect(addressKey('')).toBe('');
    expect(addressKey('unknown')).toBe('unknown');
    expect(addressKey('2001:db8::1::2')).toBe('2001:db8::1::2');
  });
});

describe('ipv6PrefixText', () => {
  it('is the /64 groups up to the first that may begin a run of zero groups', () => {
    expect(ipv6PrefixText('2001:db8:aa:bb::1')).toBe('2001:db8:aa:bb:');
    expect(ipv6PrefixText('2001:db8:0:1::1')).toBe('2001:db8:0:1:');
    expect(ipv6PrefixText('2001:db8:1:0:1:2:3:4')).toBe('2001:db8:1:');
    expect(ipv6PrefixText('2001:DB8::1')).toBe('2001:db8:');
    expect(ipv6PrefixText('fe80::1%eth0')).toBe('fe80:');
  });

  it('starts every RFC 5952 spelling of an address of the /64', () => {
    for (const [address, others] of [
      ['2001:db8:0:1::1', ['2001:db8:0:1:ffff:ffff:ffff:ffff', '2001:db8:0:1::', '2001:db8:0:1:0:1::']],
      ['2001:db8::1', ['2001:db8::', '2001:db8::1:0:0:1', '2001:db8:0:0:1::']],
      ['2001:db8:1:0::1', ['2001:db8:1::1', '2001:db8:1:0:1:2:3:4', '2001:db8:1:0:1::']],
    ] as const)
      for (const other of others) {
        expect(addressKey(other)).toBe(addressKey(address));
        expect(other.startsWith(ipv6PrefixText(address)!), other).toBe(true);
      }
  });

  it('is undefined for an IPv4 client, a /64 that begins with zero groups, and what is no address', () => {
    expect(ipv6PrefixText('198.51.100.7')).toBeUndefined();
    expect(ipv6PrefixText('::ffff:198.51.100.7')).toBeUndefined();
    expect(ipv6PrefixText('::1')).toBeUndefined();
    expect(ipv6PrefixText('nonsense')).toBeUndefined();
  });
});

describe('a shorter IPv6 prefix (CLIENT_IPV6_PREFIX)', () => {
  it('is 64 unless set, and may be set from 32 to 64', () => {
    expect(IPV6_PREFIX).toEqual({ default: 64, min: 32, max: 64 });
  });

  it('keys a /56 or /48 subscriber by it, whatever the bits after it', () => {
    expect(keyOf('2001:db8:aa:bb12:1::1', 56)).toBe('2001:db8:aa:bb00::/56');
    expect(keyOf('2001:db8:aa:bbff:ffff:ffff:ffff:ffff', 56)).toBe('2001:db8:aa:bb00::/56');
    expect(keyOf('2001:db8:aa:ff::1', 56)).toBe('2001:db8:aa::/56');
    expect(keyOf('2001:db8:aa:bb12::1', 48)).toBe('2001:db8:aa::/48');
    expect(keyOf('2001:db8:ab:1::1', 47)).toBe('2001:db8:aa::/47');
    expect(keyOf('2001:db8:ffff:1::1', 32)).toBe('2001:db8::/32');
    // Not an IPv6 client: as before.
    expect(keyOf('198.51.100.7', 48)).toBe('198.51.100.7');
    expect(keyOf('::ffff:198.51.100.7', 48)).toBe('198.51.100.7');
  });

  it('starts the text of every address of the prefix with its whole groups', () => {
    expect(prefixTextOf('2001:db8:aa:bb12::1', 56)).toBe('2001:db8:aa:');
    expect(prefixTextOf('2001:db8:aa:bb12::1', 48)).toBe('2001:db8:aa:');
    expect(prefixTextOf('2001:db8:aa:bb12::1', 47)).toBe('2001:db8:');
    expect(prefixTextOf('2001:db8:0:bb12::1', 56)).toBe('2001:db8:');
    expect(prefixTextOf('2001:db8:0:bb12::1', 32)).toBe('2001:db8:');
    for (const other of ['2001:db8:aa:bbff::', '2001:db8:aa:bb00:1:2:3:4', '2001:db8:aa:bb80::1'])
      expect(other.startsWith(prefixTextOf('2001:db8:aa:bb12::1', 56)!), other).toBe(true);
  });
});
