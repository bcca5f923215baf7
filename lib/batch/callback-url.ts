import { isIP } from 'node:net';
import { fail, serviceError, type Result } from '../errors/index.js';

/**
 * Where a batch's webhook may go (docs/batch.md#callback-addresses): an https URL; plain http only to a
 * loopback host and only where the local server allows it. One table of blocked address ranges serves
 * both checks: at submit, a host written as an IP address in a blocked range is refused; when sending,
 * every address the host resolves to must be outside them (DNS can change after the URL was given).
 */

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A blocked range; `embedsIpv4`: the range carries an IPv4 address in its last 32 bits, blocked when that address is. */
interface BlockedRange {
  network: string;
  prefix: number;
  what: string;
  embedsIpv4?: true;
}

/** Every range a webhook must never reach (private, loopback, link-local, metadata, tunnels and translations of them, reserved). */
export const BLOCKED_RANGES: readonly BlockedRange[] = [
  { network: '0.0.0.0', prefix: 8, what: 'this network' },
  { network: '10.0.0.0', prefix: 8, what: 'private' },
  { network: '100.64.0.0', prefix: 10, what: 'shared (carrier NAT)' },
  { network: '127.0.0.0', prefix: 8, what: 'loopback' },
  { network: '169.254.0.0', prefix: 16, what: 'link-local (the cloud metadata address 169.254.169.254 among them)' },
  { network: '172.16.0.0', prefix: 12, what: 'private' },
  { network: '192.0.0.0', prefix: 24, what: 'IETF protocol assignments' },
  { network: '192.0.2.0', prefix: 24, what: 'documentation' },
  { network: '192.168.0.0', prefix: 16, what: 'private' },
  { network: '198.18.0.0', prefix: 15, what: 'benchmarking' },
  { network: '198.51.100.0', prefix: 24, what: 'documentation' },
  { network: '203.0.113.0', prefix: 24, what: 'documentation' },
  { network: '224.0.0.0', prefix: 4, what: 'multicast' },
  { network: '240.0.0.0', prefix: 4, what: 'reserved' },
  { network: '::1', prefix: 128, what: 'loopback' },
  { network: '::ffff:0:0', prefix: 96, what: 'IPv4-mapped', embedsIpv4: true },
  { network: '::', prefix: 96, what: 'IPv4-compatible (unspecified and deprecated forms)' },
  { network: '64:ff9b::', prefix: 96, what: 'NAT64', embedsIpv4: true },
  { network: '64:ff9b:1::', prefix: 48, what: 'local NAT64' },
  { network: '100::', prefix: 64, what: 'discard' },
  { network: '2001::', prefix: 32, what: 'Teredo tunnel' },
  { network: '2001:db8::', prefix: 32, what: 'documentation' },
  { network: '2002::', prefix: 16, what: '6to4 tunnel' },
  { network: 'fc00::', prefix: 7, what: 'unique-local (the cloud metadata address fd00:ec2::254 among them)' },
  { network: 'fe80::', prefix: 10, what: 'link-local' },
  { network: 'fec0::', prefix: 10, what: 'site-local' },
  { network: 'ff00::', prefix: 8, what: 'multicast' },
];

const ipv4Bits = (address: string): bigint => address.split('.').reduce((bits, octet) => (bits << 8n) | BigInt(Number(octet)), 0n);

/** An IPv6 address (valid by isIP) as 128 bits: `::` expanded, a trailing dotted IPv4 read as the last 32 bits. */
function ipv6Bits(address: string): bigint {
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1];
  const text = dotted ? `${address.slice(0, -dotted.length)}0:0` : address;
  const [head = '', tail] = text.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const all = tail === undefined ? groups(head) : [...groups(head), ...Array<string>(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)];
  const bits = all.reduce((sum, group) => (sum << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
  return dotted ? bits | ipv4Bits(dotted) : bits;
}

const bitsOf = (address: string, family: number): bigint => (family === 4 ? ipv4Bits(address) : ipv6Bits(address));
const familyOf = (network: string) => (network.includes(':') ? 6 : 4);
const RANGES = BLOCKED_RANGES.map((range) => {
  const width = familyOf(range.network) === 4 ? 32 : 128;
  const shift = BigInt(width - range.prefix);
  return { ...range, family: familyOf(range.network), shift, base: bitsOf(range.network, familyOf(range.network)) >> shift };
});

const UNREADABLE: BlockedRange = { network: '', prefix: 0, what: 'not an IP address' };

/** The blocked range an IP address lies in (for an embedded IPv4, the range of that address); undefined when public. */
export function blockedRange(address: string): BlockedRange | undefined {
  const plain = address.replace(/%.*$/, '');
  const family = isIP(plain);
  if (family === 0) return UNREADABLE;
  const bits = bitsOf(plain, family);
  const range = RANGES.find((r) => r.family === family && bits >> r.shift === r.base);
  if (!range?.embedsIpv4) return range;
  const embedded = bits & 0xffffffffn;
  return blockedRange([24n, 16n, 8n, 0n].map((shift) => String((embedded >> shift) & 0xffn)).join('.'));
}

/** A blocked address the options allow anyway: loopback, on the local server only. */
const allowed = (range: BlockedRange, options: { allowLoopback: boolean }) => options.allowLoopback && range.what === 'loopback';

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
  const loopbackHttp = url.protocol === 'http:' && options.allowLoopbackHttp && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp)
    return options.allowLoopbackHttp ? 'must be an https URL (plain http only to localhost)' : 'must be an https URL';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const range = isIP(host) ? blockedRange(host) : undefined;
  if (range && !allowed(range, { allowLoopback: options.allowLoopbackHttp }))
    return `must not point at a ${range.what} address: webhooks go to public addresses only`;
  return undefined;
}

/** The admin command that gives a client its webhook signing secret (docs/batch.md#webhook-secrets). */
export const webhookSecretCommand = (clientId: string): string => `npm run admin -- webhook-secret create --client ${clientId}`;

/**
 * The 400 for a batch whose webhook could never be signed (docs/batch.md#webhook-secrets): a
 * `callbackUrl` from a client with no webhook secret is refused at submit, not dropped when the batch
 * finishes. Undefined when there is no callbackUrl or the client has a secret.
 */
export async function refuseUnsignableCallback(
  secretsFor: (clientId: string) => Promise<string[]>,
  clientId: string,
  callbackUrl: string | undefined,
): Promise<Result<never> | undefined> {
  if (callbackUrl === undefined || (await secretsFor(clientId)).length > 0) return undefined;
  return fail(
    serviceError('INVALID_REQUEST', {
      message: 'The batch is invalid (1 problem)',
      errors: [
        {
          field: 'callbackUrl',
          message: `cannot be signed: this client has no webhook secret yet; an administrator creates one with: ${webhookSecretCommand(clientId)}`,
        },
      ],
    }),
  );
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
  const bad = addresses.find(({ address }) => {
    const range = blockedRange(address);
    return range !== undefined && !allowed(range, options);
  });
  if (bad) return { ok: false, reason: 'the callback host resolves to a private or reserved address' };
  return { ok: true, address: addresses[0]!.address };
}
