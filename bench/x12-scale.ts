/**
 * Whether the 271 answer costs in proportion to the reply (docs/benchmarks.md#reading-271-replies): a
 * reply of 8,000 EB rows (about 380 KB) against one of about 1,000 rows (about 50 KB), both built from
 * the same mix of rows a payer sends (benefit status, copays, coinsurance, deductibles and out-of-pocket
 * figures with their remainings, limitations with messages, across service types, networks and levels).
 * Each is answered warm by `interpret271`, as the eligibility route answers, many times; the figure is
 * microseconds per KB, and the ratio large / small should stay within 1.5. Writes
 * bench/results/x12-scale.json (npm run bench reads it).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { interpret271 } from '../lib/eligibility/index.js';
import { response271 } from '../test/fixtures/x12/build.js';

const SERVICES = ['30', '1', '33', '35', '47', '48', '50', '86', '88', '98', 'AL', 'BZ', 'MH', 'UC', 'PT', '4', '5', '62', '2', '7'];
const NETWORKS = ['Y', 'N', 'W'];
const LEVELS = ['IND', 'FAM'];

/** Row `i` of a reply: one of eight kinds, its service, network and level turning with `i`. */
function row(i: number): string[] {
  const st = SERVICES[i % SERVICES.length]!;
  const net = NETWORKS[Math.floor(i / SERVICES.length) % NETWORKS.length]!;
  const lvl = LEVELS[Math.floor(i / (SERVICES.length * NETWORKS.length)) % LEVELS.length]!;
  const amount = 10 + (i % 97) * 5;
  switch (i % 8) {
    case 0:
      return [`EB*1*${lvl}*${st}*PR*GOLD PPO`];
    case 1:
      return [`EB*B*${lvl}*${st}*PR**27*${amount}*****${net}`];
    case 2:
      return [`EB*A*${lvl}*${st}*PR**27**.${10 + (i % 40)}****${net}`];
    case 3:
      return [`EB*C*${lvl}*${st}*PR**23*${amount * 10}*****${net}`];
    case 4:
      return [`EB*C*${lvl}*${st}*PR**29*${amount * 4}*****${net}`];
    case 5:
      return [`EB*G*${lvl}*${st}*PR**23*${amount * 40}*****${net}`];
    case 6:
      return [`EB*F*${lvl}*${st}*PR**22****VS*${20 + (i % 10)}**${net}`, `MSG*LIMIT APPLIES PER CALENDAR YEAR ${i % 13}`];
    default:
      return [`EB*G*${lvl}*${st}*PR**29*${amount * 25}*****${net}`];
  }
}

const replyOf = (rows: number): string => response271(Array.from({ length: rows }, (_, i) => row(i)).flat());

/** Warm median µs per answer over `rounds` rounds of `inner` answers each. */
function time(x12: string, rounds: number, inner: number): number {
  const question = { memberId: 'W000000001', dateOfCoverage: '20250301', serviceTypeCodes: ['30', '98', 'MH'] };
  for (let i = 0; i < inner; i++) interpret271(x12, question); // warm up
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < inner; i++) interpret271(x12, question);
    samples.push(Number(process.hrtime.bigint() - start) / 1000 / inner);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

const small = replyOf(1_000);
const large = replyOf(8_000);
const kb = (text: string) => Buffer.byteLength(text) / 1024;
const smallUs = time(small, 15, 40);
const largeUs = time(large, 15, 5);
const result = {
  node: process.version,
  small: { rows: 1_000, kb: Math.round(kb(small)), us: Math.round(smallUs), usPerKb: smallUs / kb(small) },
  large: { rows: 8_000, kb: Math.round(kb(large)), us: Math.round(largeUs), usPerKb: largeUs / kb(large) },
  ratioPerKb: largeUs / kb(large) / (smallUs / kb(small)),
};
const results = fileURLToPath(new URL('results/', import.meta.url));
mkdirSync(results, { recursive: true });
writeFileSync(join(results, 'x12-scale.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result));
