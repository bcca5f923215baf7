import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { COB_SANDBOX_PATIENTS } from '../../infra/dev/sandbox/cob-answers.js';
import { SANDBOX_PATIENTS } from '../../infra/dev/sandbox/patients.js';
import { MOCK_PATIENTS } from '../../lib/mock/patients.js';

/** The README's patient tables are what integrators copy; they must match what the code answers. */

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const API_GUIDE = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');

/** Rows of the markdown table that follows `heading` (first line starting with the text). */
function tableAfter(heading: string, text = README): string[][] {
  const start = text.indexOf(heading);
  expect(start).toBeGreaterThanOrEqual(0);
  const lines = text.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

const name = (cell: string) => cell.replace(/\s*\(.*\)$/, '');

describe('README', () => {
  it('starts with the install-and-run and the test commands', () => {
    const firstBlock = README.slice(README.indexOf('```bash'), README.indexOf('```', README.indexOf('```bash') + 7));
    expect(firstBlock).toContain('npm install && npm start');
    expect(firstBlock).toContain('npm test');
  });

  it('names, where it says where patient data goes, the business associate agreements an operator needs', () => {
    const section = README.slice(README.indexOf('## Where patient data goes'), README.indexOf('## Layout'));
    expect(section).toContain('Business associate agreements');
    for (const party of ['**AWS**', '**Stedi**', '**Anthropic**']) expect([party, section.includes(party)]).toEqual([party, true]);
  });

  it('docs/api.md lists the four mock sets exactly as the code matches them', () => {
    const rows = tableAfter('`"mockRequest": true` on the eligibility route', API_GUIDE);
    expect(rows.map((r) => r.slice(1, 8))).toEqual(MOCK_PATIENTS.map((p) => Object.values(p)));
  });

  it('lists eligibility sandbox patients that the sandbox knows', () => {
    const rows = tableAfter('Eligibility test patients');
    expect(rows.length).toBeGreaterThanOrEqual(8);
    for (const [patient, dob, member, payer] of rows) {
      const [first, last] = name(patient!).split(' ');
      expect(
        SANDBOX_PATIENTS.find((p) => p.firstName === first && p.lastName === last && p.dob === dob && p.memberId === member && p.payerId === payer),
      ).toBeDefined();
    }
  });

  it('lists COB sandbox patients with the cobCode the sandbox gives them', () => {
    const rows = tableAfter('COB test patients');
    for (const [patient, dob, member, outcome] of rows) {
      const [first, ...rest] = name(patient!).split(' ');
      const found = COB_SANDBOX_PATIENTS.find((p) => p.firstName === first && p.lastName === rest.join(' ') && p.dateOfBirth === dob && p.memberId === member);
      expect(found).toBeDefined();
      const code = /`(\w+)`/.exec(outcome!)?.[1];
      if (code && 'cobCode' in found!.expected) expect(found!.expected.cobCode).toBe(code);
    }
  });
});
