import { describe, it, expect } from '@jest/globals';
import { citationMarker, parseLetterMarkdown, type Block } from '../../../lib/letter/compose/body-markdown.js';
import { assembleLetter } from '../../../lib/letter/render/markdown.js';

const META = {
  patient_identifier: 'PAT-0001',
  patient_name: 'Ana Diaz',
  patient_age: '47',
  facility_name: 'Riverside Orthopedics',
  visit_cost: '$100.00',
  provider_email: 'dr@riverside.example',
  provider_phone: '+1 555 0100',
  provider_signature: '/s/ Dana Lee',
  provider_name: 'Dana Lee, MD',
};
const BEFORE_BODY = '- **Patient identifier:** PAT-0001\n\n---\n\n';
const AFTER_BODY = '\n\n---\n\nSincerely,';
/** The body as the letter writes it (docs/letter.md#layout): between the rule after the patient block and the one before the signature. */
function writtenBody(blocks: Block[]): string {
  const letter = assembleLetter({ meta: META, body: blocks, citations: [], generatedAt: new Date('2026-03-05T12:00:00Z') });
  const start = letter.indexOf(BEFORE_BODY);
  expect(start).toBeGreaterThan(0);
  return letter.slice(start + BEFORE_BODY.length, letter.lastIndexOf(AFTER_BODY));
}

const runsOf = (markdown: string) => (parseLetterMarkdown(markdown)[0] as Extract<Block, { runs: unknown }>).runs;

describe('parseLetterMarkdown (mdast)', () => {
  it('reads **bold**, *italic*, ***both***, __bold__ and _italic_, but not snake_case or 2 * 3', () => {
    expect(runsOf('a **b** c *d* e ***f*** g')).toEqual([
      { text: 'a ', style: 'regular' },
      { text: 'b', style: 'bold' },
      { text: ' c ', style: 'regular' },
      { text: 'd', style: 'italic' },
      { text: ' e ', style: 'regular' },
      { text: 'f', style: 'boldItalic' },
      { text: ' g', style: 'regular' },
    ]);
    expect(runsOf('__b__ _i_ snake_case_name 2 * 3 \\*lit\\*')).toEqual([
      { text: 'b', style: 'bold' },
      { text: ' ', style: 'regular' },
      { text: 'i', style: 'italic' },
      { text: ' snake_case_name 2 * 3 *lit*', style: 'regular' },
    ]);
  });

  it('keeps a link’s visible text and drops its target, images, raw HTML and definitions', () => {
    const blocks = parseLetterMarkdown(
      'see [guideline](https://e.org) and [ref][1] ![pixel](https://t.example/p.gif) <b>bold</b> `code` <https://x.example>\n\n<script>alert(1)</script>\n\n[1]: javascript:alert(1)',
    );
    expect(blocks).toEqual([{ kind: 'paragraph', runs: [{ text: 'see guideline and ref bold code x.example', style: 'regular' }] }]);
  });

  it('removes javascript: and data: URLs even as plain text, and defuses the words', () => {
    expect(runsOf('Go javascript:alert(1) now; raw DATA:text/html;base64,AAA; lab data: normal; metadata: ok')).toEqual([
      { text: 'Go now; raw lab data – normal; metadata – ok', style: 'regular' },
    ]);
  });

  it('reads headings, paragraphs, lists with one nested level and rules', () => {
    const blocks = parseLetterMarkdown(
      ['# Top', '## Diagnosis', 'Line one', 'line two.', '', '- a', '  - nested', '- b', '', '1. first', '2. second', '', '---', '', '#### deep'].join('\n'),
    );
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, runs: [{ text: 'Top', style: 'bold' }] },
      { kind: 'heading', level: 2, runs: [{ text: 'Diagnosis', style: 'bold' }] },
      { kind: 'paragraph', runs: [{ text: 'Line one line two.', style: 'regular' }] },
      { kind: 'item', depth: 0, marker: '•', ordered: false, runs: [{ text: 'a', style: 'regular' }] },
      { kind: 'item', depth: 1, marker: '◦', ordered: false, runs: [{ text: 'nested', style: 'regular' }] },
      { kind: 'item', depth: 0, marker: '•', ordered: false, runs: [{ text: 'b', style: 'regular' }] },
      { kind: 'item', depth: 0, marker: '1.', ordered: true, runs: [{ text: 'first', style: 'regular' }] },
      { kind: 'item', depth: 0, marker: '2.', ordered: true, runs: [{ text: 'second', style: 'regular' }] },
      { kind: 'rule' },
      { kind: 'heading', level: 3, runs: [{ text: 'deep', style: 'bold' }] },
    ]);
  });

  it('turns citation sentinels into marker runs', () => {
    expect(runsOf(`Knee pain. ${citationMarker([2, 3])} More.`)).toEqual([
      { text: 'Knee pain. ', style: 'regular' },
      { text: '[p. 2] [p. 3]', style: 'regular', marker: true },
      { text: ' More.', style: 'regular' },
    ]);
  });
});

describe('the body written back into the letter', () => {
  it('writes the blocks back as markdown that reads the same', () => {
    const source = [
      '## Diagnosis',
      '',
      'Osteoarthritis (**M17.11**) with *night pain*.',
      '',
      '- a',
      '    - nested',
      '- b',
      '',
      '1. first',
      '2. second',
      '',
      '---',
      '',
      'End.',
    ].join('\n');
    const written = writtenBody(parseLetterMarkdown(source));
    expect(written).toBe(source);
    expect(parseLetterMarkdown(written)).toEqual(parseLetterMarkdown(source));
  });

  it('escapes text that would read as structure, and never writes a <', () => {
    const written = writtenBody(parseLetterMarkdown('\\# not a heading with \\[x\\]\\(y\\) and 1 < 2 & &amp; \\*stars\\*'));
    expect(written).toBe('\\# not a heading with \\[x\\](y) and 1 &lt; 2 & & \\*stars\\*');
    expect(parseLetterMarkdown(written)).toEqual(parseLetterMarkdown('\\# not a heading with \\[x\\]\\(y\\) and 1 < 2 & &amp; \\*stars\\*'));
  });
});
