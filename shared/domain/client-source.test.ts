import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientSourceOf, parseViewerAddress, sourceKey } from './client-source';

describe('parseViewerAddress', () => {
  it('takes the address of an IPv4 or IPv6 "ip:port" value and drops the port', () => {
    expect(parseViewerAddress('198.51.100.10:46532')).toBe('198.51.100.10');
    expect(parseViewerAddress('2001:db8:85a3::8a2e:370:7334:46532')).toBe('2001:db8:85a3::8a2e:370:7334');
    expect(parseViewerAddress('[2001:db8::1]:443')).toBe('2001:db8::1');
  });

  it('refuses anything that is not an address with a port', () => {
    for (const v of [
      undefined,
      '',
      '198.51.100.10',
      'evil:80',
      '198.51.100.10:port',
      '1.2.3.4, 5.6.7.8:1',
      ':80',
    ])
      expect(parseViewerAddress(v), String(v)).toBeNull();
  });

  it('reads every IPv4 address back whatever the port', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.integer({ min: 0, max: 65535 }), (ip, port) => {
        expect(parseViewerAddress(`${ip}:${port}`)).toBe(ip);
      }),
    );
  });
});

describe('sourceKey', () => {
  it('keeps IPv4, maps IPv4-mapped IPv6 to IPv4, and groups IPv6 by /64', () => {
    expect(sourceKey('203.0.113.9')).toBe('203.0.113.9');
    expect(sourceKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(sourceKey('2001:db8:7:1::10')).toBe('2001:db8:7:1::/64');
    expect(sourceKey('2001:0db8:0007:0001:ffff:0000:0000:0099')).toBe('2001:db8:7:1::/64');
    expect(sourceKey('2001:db8:7:2::10')).toBe('2001:db8:7:2::/64');
    expect(sourceKey('::1')).toBe('0:0:0:0::/64');
  });

  it('gives every address of one /64 the same key, and addresses of different /64s different keys', () => {
    const group = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
    const prefix = fc.tuple(group, group, group, group);
    fc.assert(
      fc.property(
        prefix,
        fc.tuple(group, group, group, group),
        fc.tuple(group, group, group, group),
        (p, a, b) => {
          expect(sourceKey([...p, ...a].join(':'))).toBe(sourceKey([...p, ...b].join(':')));
        },
      ),
    );
    fc.assert(
      fc.property(prefix, prefix, fc.tuple(group, group, group, group), (p, q, host) => {
        fc.pre(p.map((x) => Number.parseInt(x, 16)).join() !== q.map((x) => Number.parseInt(x, 16)).join());
        expect(sourceKey([...p, ...host].join(':'))).not.toBe(sourceKey([...q, ...host].join(':')));
      }),
    );
  });
});

describe('clientSourceOf', () => {
  it('uses the viewer address only when the request proved it passed CloudFront', () => {
    const viewerAddress = '198.51.100.7:40001';
    expect(clientSourceOf({ sourceIp: '130.176.1.1', viewerAddress, originVerified: true })).toBe(
      '198.51.100.7',
    );
    expect(clientSourceOf({ sourceIp: '203.0.113.5', viewerAddress, originVerified: false })).toBe(
      '203.0.113.5',
    );
  });

  it('falls back to the source IP when the viewer address is unreadable, and never to nothing', () => {
    expect(clientSourceOf({ sourceIp: '203.0.113.5', viewerAddress: 'junk', originVerified: true })).toBe(
      '203.0.113.5',
    );
    expect(clientSourceOf({ sourceIp: undefined, viewerAddress: undefined, originVerified: false })).toBe(
      'unknown',
    );
  });
});
