import { BlockList, isIP } from 'node:net';

/**
 * Where a batch's webhook may go (docs/batch.md#webhook): an https URL; plain http only to a
 * loopback host and only where the local server allows it. When sending, every address the host
 * resolves to must be public: never private, loopback, link-local, metadata or otherwise reserved
 * (checked at send time too, since DNS can change after the URL was given).
 */

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A problem with the URL as written, in plain words; undefined when it may be used. */
export function checkCallbackUrl(value: string, options: { allowLoopbackHttp: boolean }): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an https URL';
  }
  if (value.length > 2048) return 'must be at most 2048 characters';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && options.allowLoopbackHttp && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return options.allowLoopbackHttp ? 'must be an https URL (plain http only to localhost)' : 'must be an https URL';
}

// Two lists: Node matches IPv4 addresses against IPv4-mapped IPv6 subnets, so one list would block every IPv4 address.
const BLOCKED_V4 = new BlockList();
const BLOCKED_V6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED_V4.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['fd00:ec2::', 32],
] as const)
  BLOCKED_V6.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address is one a webhook must never reach (the EC2 metadata addresses included). */
function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    if (mapped) return isBlockedAddress(mapped);
    return BLOCKED_V6.check(address, 'ipv6');
  }
  return BLOCKED_V4.check(address, 'ipv4');
}

export type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

/**
 * The address to connect to, checked: every address the name resolves to must be public (one bad
 * answer refuses the lot, so a rebinding name gets nothing). Loopback passes only where allowed (locally).
 */
export async function safeAddress(
  url: URL,
  lookup: Lookup,
  options: { allowLoopback: boolean },
): Promise<{ ok: true; address: string } | { ok: false; reason: string }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string }[];
  try {
    addresses = isIP(host) ? [{ address: host }] : await lookup(host);
  } catch {
    return { ok: false, reason: 'the callback host does not resolve' };
  }
  if (addresses.length === 0) return { ok: false, reason: 'the callback host does not resolve' };
  const loopback = (address: string) => address === '::1' || address.startsWith('127.');
  const bad = addresses.find(({ address }) => isBlockedAddress(address) && !(options.allowLoopback && loopback(address)));
  if (bad) return { ok: false, reason: 'the callback host resolves to a private or reserved address' };
  return { ok: true, address: addresses[0]!.address };
}
