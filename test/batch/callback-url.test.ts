import { describe, expect, it } from '@jest/globals';
import { checkCallbackUrl, safeAddress } from '../../lib/batch/callback-url.js';

/**
 * Where a webhook may go (docs/batch.md#callback-addresses): one table of blocked ranges, used at submit
 * for a host written as an IP address and at send time for every address a name resolves to.
 */

const inAws = { allowLoopbackHttp: false };
const locally = { allowLoopbackHttp: true };
const resolvedTo = (address: string, allowLoopback = false) =>
  safeAddress(new URL('https://hooks.clinic.example/x'), async () => [{ address, family: address.includes(':') ? 6 : 4 }], { allowLoopback });
const BLOCKED = { ok: false, reason: 'the callback host resolves to a private or reserved address' };

describe('callbackUrl at submit', () => {
  it.each([
    'https://10.0.0.1/hook',
    'https://192.168.1.20/hook',
    'https://172.16.0.1/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[fd00:ec2::254]/latest',
    'https://[fc00::1]/hook',
    'https://[fe80::1]/hook',
    'https://127.0.0.1/hook',
    'https://[::1]/hook',
    'https://[::ffff:169.254.169.254]/hook',
    'https://[::ffff:10.0.0.1]/hook',
    'https://[::a9fe:a9fe]/hook',
    'https://[::7f00:1]/hook',
    'https://0x7f.1/hook',
    'https://2852039166/hook',
    'https://[2002:a9fe:a9fe::1]/hook',
    'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook',
    'https://[64:ff9b:1::a9fe:a9fe]/hook',
    'https://[64:ff9b::a9fe:a9fe]/hook',
  ])('refuses %s, an IP address in a blocked range, in AWS', (url) => {
    expect(checkCallbackUrl(url, inAws)).toMatch(/^must not point at a .+ address: webhooks go to public addresses only$/);
  });

  it('names what the address is', () => {
    expect(checkCallbackUrl('https://169.254.169.254/', inAws)).toBe(
      'must not point at a link-local (the cloud metadata address 169.254.169.254 among them) address: webhooks go to public addresses only',
    );
    expect(checkCallbackUrl('https://[::a9fe:a9fe]/', inAws)).toMatch(/IPv4-compatible/);
  });

  it('keeps loopback where the local server allows plain http to it, and nothing else private', () => {
    expect(checkCallbackUrl('http://127.0.0.1:8080/hook', locally)).toBeUndefined();
    expect(checkCallbackUrl('http://[::1]:8080/hook', locally)).toBeUndefined();
    expect(checkCallbackUrl('https://127.0.0.1:8443/hook', locally)).toBeUndefined();
    expect(checkCallbackUrl('https://10.0.0.1/hook', locally)).toMatch(/private/);
    expect(checkCallbackUrl('https://[::a9fe:a9fe]/hook', locally)).toMatch(/IPv4-compatible/);
  });

  it('lets public addresses and names through (names are checked when sent)', () => {
    for (const url of ['https://93.184.216.34/hook', 'https://[2606:4700::1111]/hook', 'https://[64:ff9b::5db8:d822]/hook', 'https://hooks.clinic.example/x'])
      expect(checkCallbackUrl(url, inAws)).toBeUndefined();
  });
});

describe('callback addresses when sent', () => {
  it.each([
    '::7f00:1',
    '::a9fe:a9fe',
    '::10.0.0.1',
    '2002:7f00:1::1',
    '2002::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001::1',
    '64:ff9b:1::1',
    '64:ff9b:1:ffff::a9fe:a9fe',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::127.0.0.1',
    '::ffff:127.0.0.1',
    'fd00:ec2::254',
  ])('refuses a name resolving to %s', async (address) => {
    expect(await resolvedTo(address)).toEqual(BLOCKED);
  });

  it('allows loopback only where allowed, and NAT64 of a public IPv4', async () => {
    expect(await resolvedTo('127.0.0.1', true)).toEqual({ ok: true, address: '127.0.0.1' });
    expect(await resolvedTo('::ffff:169.254.169.254', true)).toEqual(BLOCKED);
    expect(await resolvedTo('64:ff9b::5db8:d822')).toEqual({ ok: true, address: '64:ff9b::5db8:d822' });
    expect(await resolvedTo('2600:1f18::1')).toEqual({ ok: true, address: '2600:1f18::1' });
  });
});
