import { describe, it, expect, afterAll } from '@jest/globals';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { authorizeProvider } from '../../../lib/enrollment/authorize.js';
import { isValidNpi } from '../../../lib/enrollment/npi.js';
import { startLocalEnrollments } from '../../../infra/dev/local/enrollments.js';

const SAMPLE = fileURLToPath(new URL('../../../infra/dev/local/enrollments.sample.json', import.meta.url));
const dirs: string[] = [];
const tempFile = async (content: string) => {
  const dir = await mkdtemp(join(tmpdir(), 'enroll-'));
  dirs.push(dir);
  const file = join(dir, 'enrollments.json');
  await writeFile(file, content);
  return file;
};

afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('startLocalEnrollments', () => {
  it('with tables kept on disk (LOCAL_DATA_DIR), loads the file in place of what an earlier run left, in a directory only its owner reads', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'enroll-data-'));
    dirs.push(parent);
    const dataDir = join(parent, 'data');
    const first = await startLocalEnrollments(SAMPLE, { dataDir });
    await first.close();
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    const file = await tempFile(
      JSON.stringify([{ providerId: 'ONLY-ONE', clientId: 'local', npi: '1234567893', organizationName: 'Clinic', status: 'active' }]),
    );
    const second = await startLocalEnrollments(file, { dataDir });
    try {
      expect(await second.store.get('ONLY-ONE')).toMatchObject({ clientId: 'local' });
      expect(await second.store.get('PROVIDER-SANDBOX-1')).toBeUndefined();
    } finally {
      await second.close();
    }
  });

  it('loads the sample file into a loopback table and demonstrates every enrollment rule', async () => {
    const local = await startLocalEnrollments(SAMPLE);
    try {
      expect(local.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const sandbox = await local.store.get('PROVIDER-SANDBOX-1');
      expect(sandbox).toMatchObject({ clientId: 'local', organizationName: 'Sandbox Family Clinic', status: 'active' });
      expect(isValidNpi(sandbox!.npi)).toBe(true);

      expect((await authorizeProvider(local.store, 'local', 'PROVIDER-SANDBOX-1', 'ANY')).ok).toBe(true);
      expect((await authorizeProvider(local.store, 'local', 'PROVIDER-SANDBOX-2', 'SANDBOX-PAYER-1')).ok).toBe(true);
      expect((await authorizeProvider(local.store, 'local', 'PROVIDER-SANDBOX-2', 'ANOTHER')).ok).toBe(false);
      expect((await authorizeProvider(local.store, 'local', 'PROVIDER-SANDBOX-INACTIVE', 'ANY')).ok).toBe(false);
      expect((await authorizeProvider(local.store, 'local', 'PROVIDER-OTHER-CLIENT', 'ANY')).ok).toBe(false);
      expect((await authorizeProvider(local.store, 'other', 'PROVIDER-OTHER-CLIENT', 'ANY')).ok).toBe(true);
    } finally {
      await local.close();
    }
  });

  it('fails start naming the bad record index and fields, not its data', async () => {
    const file = await tempFile(
      JSON.stringify([
        { providerId: 'OK', clientId: 'c', npi: '1234567893', organizationName: 'Fine', status: 'active' },
        { providerId: 'BAD', clientId: 'c', npi: '1234567890', organizationName: 'Hidden Clinic Name', status: 'active' },
      ]),
    );
    const error = await startLocalEnrollments(file).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/record 1 is invalid: npi /);
    expect(error?.message).not.toContain('1234567890');
    expect(error?.message).not.toContain('Hidden Clinic Name');
  });

  it('fails clearly on a missing file, broken JSON, or a non-array', async () => {
    await expect(startLocalEnrollments('/nonexistent/enrollments.json')).rejects.toThrow(/could not be read \(ENOENT\)/);
    await expect(startLocalEnrollments(await tempFile('[{'))).rejects.toThrow(/could not be read \(not valid JSON\)/);
    await expect(startLocalEnrollments(await tempFile('{"providerId":"x"}'))).rejects.toThrow(/must hold a JSON array/);
  });
});
