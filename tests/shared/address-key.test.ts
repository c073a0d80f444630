import { describe, expect, it } from 'vitest';
import { addressKey, ipv6PrefixText } from '../../shared/address-key';

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
    expect(spellings.map(addressKey)).toEqual([
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
