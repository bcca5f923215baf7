import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { SAMPLE_CARDS } from '../../infra/dev/sandbox/cards/samples.js';
import { startLocalApi, type LocalApi } from '../support/local-api.js';
import { logCapture } from '../support/log-capture.js';
import { responseProblems } from '../support/response-schemas.js';

/**
 * POST /api/insurance-card/v1 end to end through the local server (docs/finding-coverage.md): the
 * committed sample cards read by the sandbox Messages API, the payer directory's matches, the
 * eligibility check with a sandbox patient, and the images refused from their headers.
 */

const CARD = '/api/insurance-card/v1';
const image = (file: string) => readFileSync(new URL(`../../infra/dev/sandbox/cards/${file}`, import.meta.url)).toString('base64');

/** A PNG of `width` × `height` whose header is whole (its CRC right), with `extra` bytes after it. */
function pngHeader(width: number, height: number, { crc = true } = {}): Buffer {
  const ihdr = Buffer.alloc(17);
  ihdr.write('IHDR', 0, 'latin1');
  ihdr.writeUInt32BE(width, 4);
  ihdr.writeUInt32BE(height, 8);
  ihdr.set([8, 2, 0, 0, 0], 12);
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE(crc ? crc32(ihdr) : (crc32(ihdr) + 1) >>> 0);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), ihdr, sum]);
}

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(async () => {
  await api?.close();
});

describe('the sample cards', () => {
  it.each(SAMPLE_CARDS.map((card) => [card.name, card] as const))(
    '%s is read as printed, with payer matches and CONFIRM_CARD_FIELDS',
    async (_name, sample) => {
      const [front, back] = sample.sides;
      const { status, body } = await api.call(CARD, { front: image(front!.file), ...(back ? { back: image(back.file) } : {}) });
      expect(status).toBe(200);
      expect(responseProblems('card', body)).toEqual([]);
      const printed = Object.assign({}, ...sample.sides.map((side) => side.fields));
      expect(body.card).toEqual(printed);
      expect(Object.keys(body.confidence).sort()).toEqual(Object.keys(printed).sort());
      expect(body.notices.map((notice: { code: string }) => notice.code)).toEqual(['CONFIRM_CARD_FIELDS']);
      expect(body.payerMatches.length).toBeGreaterThan(0);
      expect(body.payerMatches.length).toBeLessThanOrEqual(5);
      expect(body.eligibility).toBeUndefined();
    },
  );

  it('the best payer match is the payer the card names', async () => {
    const medicaid = await api.call(CARD, { front: image('medicaid-managed-care.png') });
    expect(medicaid.body.payerMatches[0]).toEqual({ payerId: '20554', name: 'Molina Healthcare of Texas', score: 1 });
    const medicare = await api.call(CARD, { front: image('medicare.png') });
    expect(medicare.body.payerMatches[0].payerId).toBe('CMS');
  });

  it('check runs the eligibility check with the card of the sandbox patient Harold Brooks', async () => {
    const { status, body } = await api.call(CARD, {
      front: image('medicare.png'),
      check: { patientDOB: '11-02-1950', dateOfCoverage: '03-01-2025', providerId: 'PROVIDER-SANDBOX-1' },
    });
    expect(status).toBe(200);
    expect(body.eligibility.coverageStatus).toBe('Active');
    expect(body.eligibility.message).toBe('Eligibility check successful');
  });

  it("check answers the eligibility route's error body when the payer does not know the patient", async () => {
    const { status, body } = await api.call(CARD, {
      front: image('commercial-ppo-front.png'),
      check: { patientDOB: '01-01-1980', dateOfCoverage: '03-01-2025', providerId: 'PROVIDER-SANDBOX-1' },
    });
    expect(status).toBe(200);
    expect(body.card.memberId).toBe('W186512943');
    expect(body.eligibility.code).toBe('PAYER_REJECTED');
  });
});

describe('images refused before the model sees them', () => {
  it.each([
    ['a non-image', Buffer.from('this is a text file, not a photo of a card').toString('base64'), 400, 'INVALID_FILE'],
    ['text that is not base64', 'not base64 at all!', 400, 'INVALID_FILE'],
    ['a PNG claiming 9,000 px', pngHeader(9_000, 600).toString('base64'), 413, 'PAYLOAD_TOO_LARGE'],
    ['a PNG whose header lies about its size (checksum broken)', pngHeader(1_000, 630, { crc: false }).toString('base64'), 400, 'INVALID_FILE'],
    ['a PNG cut inside its header', pngHeader(1_000, 630).subarray(0, 24).toString('base64'), 400, 'INVALID_FILE'],
    ['an image over 2 MiB', Buffer.concat([pngHeader(1_000, 630), Buffer.alloc(2 * 1024 * 1024)]).toString('base64'), 413, 'PAYLOAD_TOO_LARGE'],
  ])('%s', async (_what, front, status, code) => {
    const answer = await api.call(CARD, { front });
    expect(answer.status).toBe(status);
    expect(answer.body.code).toBe(code);
    // The route's own words, naming the side (not a cap of the server's).
    expect(answer.body.message).toMatch(/front/);
  });

  it('a readable image that is not a sample card → 422 CARD_NOT_READ', async () => {
    const front = image('medicare.png');
    const changed = Buffer.from(front, 'base64');
    changed[changed.length - 20] ^= 0xff;
    const answer = await api.call(CARD, { front: changed.toString('base64') });
    expect(answer.status).toBe(422);
    expect(answer.body.code).toBe('CARD_NOT_READ');
  });

  it.each([
    ['a JPEG', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 0x02, 0x58, 0x03, 0xe8, 1, 1, 0x11, 0, 0xff, 0xd9])],
    ['a WebP', Buffer.from('RIFF\x16\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00\x00\x00\x00\x00\xe7\x03\x00\x57\x02\x00', 'latin1')],
  ])('%s with a whole header that is no sample card reaches the model and is 422 CARD_NOT_READ', async (_what, bytes) => {
    const answer = await api.call(CARD, { front: bytes.toString('base64') });
    expect(answer.status).toBe(422);
    expect(answer.body.code).toBe('CARD_NOT_READ');
  });

  it("check's dates follow the eligibility rules, named under check", async () => {
    const answer = await api.call(CARD, {
      front: image('medicare.png'),
      check: { patientDOB: '11-02-1950', dateOfCoverage: '01-01-1949', providerId: 'PROVIDER-SANDBOX-1' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ field: 'check.dateOfCoverage', message: 'must not be before the date of birth (patientDOB)' }]);
  });

  it('an unknown field or a missing front is a 400 INVALID_REQUEST', async () => {
    const answer = await api.call(CARD, { back: image('medicare.png'), side: 'front' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['front', 'side']);
  });
});

describe('logs', () => {
  it('hold no patient data and no image', async () => {
    const capture = logCapture();
    capture.start();
    try {
      await api.call(CARD, {
        front: image('medicare.png'),
        check: { patientDOB: '11-02-1950', dateOfCoverage: '03-01-2025', providerId: 'PROVIDER-SANDBOX-1' },
      });
      await api.call(CARD, { front: image('commercial-ppo-front.png'), back: image('commercial-ppo-back.png') });
    } finally {
      capture.stop();
    }
    const text = JSON.stringify(capture.records());
    expect(capture.records().some((record) => record.route === 'insurance-card')).toBe(true);
    for (const secret of ['1EG4TE5MK73', 'HAROLD', 'Brooks', '11-02-1950', '19501102', 'W186512943', 'SAMPLE', image('medicare.png').slice(0, 40)]) {
      expect(text).not.toContain(secret);
    }
  });
});
