import { describe, it, expect } from '@jest/globals';
import type { Run } from '../../lib/pdf/runs.js';
import { wrapRuns, type Measure } from '../../lib/pdf/wrap.js';

// Monospace: 1 unit per character, bold 2 units, so style-aware measuring is visible.
const measure: Measure = (text, style) => [...text].length * (style === 'bold' ? 2 : 1);
const plain = (text: string): Run[] => [{ text, style: 'regular' }];
const lineText = (runs: Run[], width: number) => wrapRuns(runs, width, measure).map((l) => l.runs.map((r) => r.text).join(''));

describe('wrapRuns', () => {
  it('breaks on word boundaries and never exceeds the width', () => {
    const lines = wrapRuns(plain('the quick brown fox jumps over the lazy dog'), 10, measure);
    expect(lines.map((l) => l.runs.map((r) => r.text).join(''))).toEqual(['the quick', 'brown fox', 'jumps over', 'the lazy', 'dog']);
    for (const line of lines) expect(line.width).toBeLessThanOrEqual(10);
  });

  it('breaks a word longer than the line by characters, every chunk within the width', () => {
    const lines = wrapRuns(plain(`a ${'x'.repeat(25)} b`), 10, measure);
    expect(lines.map((l) => l.runs.map((r) => r.text).join(''))).toEqual(['a', 'xxxxxxxxxx', 'xxxxxxxxxx', 'xxxxx b']);
    for (const line of lines) {
      expect(line.width).toBeLessThanOrEqual(10);
      for (const run of line.runs) expect(run.x + run.width).toBeLessThanOrEqual(10);
    }
  });

  it('breaks a long bold word by its own (wider) measure', () => {
    const lines = wrapRuns([{ text: 'y'.repeat(12), style: 'bold' }], 10, measure);
    expect(lines.map((l) => l.runs[0].text)).toEqual(['yyyyy', 'yyyyy', 'yy']);
    for (const line of lines) expect(line.width).toBeLessThanOrEqual(10);
  });

  it('keeps a word made of differently styled pieces together and positions the pieces', () => {
    const runs: Run[] = [
      { text: 'see ', style: 'regular' },
      { text: 'bold', style: 'bold' },
      { text: ', then more', style: 'regular' },
    ];
    const lines = wrapRuns(runs, 18, measure);
    expect(lines.map((l) => l.runs.map((r) => r.text).join(''))).toEqual(['see bold, then', 'more']);
    const [see, bold, comma, then] = lines[0].runs;
    expect(see).toMatchObject({ text: 'see ', x: 0, style: 'regular' });
    expect(bold).toMatchObject({ text: 'bold', x: 4, width: 8, style: 'bold' });
    expect(comma).toMatchObject({ text: ', ', x: 12 });
    expect(then).toMatchObject({ text: 'then', x: 14 });
    expect(lines[0].width).toBe(18); // 4 + 8 + 6
    expect(lineText(runs, 14)).toEqual(['see bold,', 'then more']);
  });

  it('collapses runs of whitespace and drops empty input', () => {
    expect(lineText(plain('  a   b  '), 10)).toEqual(['a b']);
    expect(wrapRuns(plain('   '), 10, measure)).toEqual([]);
  });
});
