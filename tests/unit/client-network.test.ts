import { describe, expect, it } from 'vitest';
import { networkOf } from '../../server/http/addresses.ts';

/** The address limits count by (decision 0308): an IPv4 address itself, an IPv6 address its /64. */
describe('networkOf', () => {
  it('keeps an IPv4 address, also one written as IPv6', () => {
    expect(networkOf('192.0.2.7')).toBe('192.0.2.7');
    expect(networkOf('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(networkOf('::FFFF:192.0.2.7')).toBe('192.0.2.7');
    expect(networkOf('::ffff:c000:207')).toBe('192.0.2.7');
  });

  it('answers one network for every address of a /64, however it is written', () => {
    const one = ['2001:db8:1:2::1', '2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:DB8:1:2:0:0:0:9', '2001:db8:1:2:3:4:198.51.100.1', '2001:db8:1:2::5%eth0'];
    expect(new Set(one.map(networkOf))).toEqual(new Set(['2001:db8:1:2::/64']));
  });

  it('tells neighbouring networks apart, and fills what :: leaves out before the fourth group', () => {
    expect(networkOf('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(networkOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(networkOf('2001:db8::1:2:3:4:5')).toBe('2001:db8:0:1::/64');
    expect(networkOf('::1')).toBe('0:0:0:0::/64');
    expect(networkOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
