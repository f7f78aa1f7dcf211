import { describe, expect, it } from 'vitest';
import { addressKey } from './client-address.js';

describe('addressKey', () => {
  it('keeps an IPv4 address whole, also when mapped into IPv6', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts IPv6 clients by their /64, whatever the spelling', () => {
    const key = addressKey('2001:db8:85a3:42::1');
    expect(key).toBe('2001:db8:85a3:42::/64');
    expect(addressKey('2001:0db8:85a3:0042:ffff:ffff:ffff:ffff')).toBe(key);
    expect(addressKey('2001:DB8:85A3:42:1:2:3:4')).toBe(key);
    expect(addressKey('2001:db8:85a3:43::1')).not.toBe(key);
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('gives anything that is not an address one shared key', () => {
    expect(addressKey(undefined)).toBe('unknown');
    expect(addressKey('not an address')).toBe('unknown');
  });
});
