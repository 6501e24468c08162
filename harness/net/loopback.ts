// Pure: is an IP address on loopback? The project sends traffic nowhere else.

import { isIP } from 'node:net';

export function isLoopbackAddress(address: string): boolean {
  const kind = isIP(address);
  if (kind === 4) return address.startsWith('127.');
  if (kind === 6) {
    const a = address.toLowerCase();
    if (a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
    return mapped !== null && mapped[1]!.startsWith('127.');
  }
  return false;
}
