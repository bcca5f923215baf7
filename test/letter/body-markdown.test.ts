import { describe, it, expect } from '@jest/globals';
import { parseInline, parseLetterMarkdown } from '../../lib/letter/body-markdown.js';

describe('parseInline', () => {
  it('reads **bold**, *italic* and ***both***', () => {
    expect(parseInline('a **b** c *d* e ***f*** g')).toEqual([
      { text: 'a ', style: 'regular' },
      { text: 'b', style: 'bold' },
      { text: ' c ', style: 'regular' },
      { text: 'd', style: 'italic' },
      { text: ' e ', style: 'regular' },
      { text: 'f', style: 'boldItalic' },
      { text: ' g', style: 'regular' },
    ]);
  });

  it('reads __bold__ and _italic_ but not snake_case', () => {
    expect(parseInline('__b__ _i_ snake_case_name')).toEqual([
      { text: 'b', style: 'bold' },
      { text: ' ', style: 'regular' },
      { text: 'i', style: 'italic' },
      { text: ' snake_case_name', style: 'regular' },
    ]);
  });

  it('keeps unpaired and spaced asterisks and escapes as text', () => {
    expect(parseInline('2 * 3 and **open')).toEqual([{ text: '2 * 3 and **open', style: 'regular' }]);
    expect(parseInline('\\*not italic\\*')).toEqual([{ text: '*not italic*', style: 'regular' }]);
  });

  it('turns links into "label (url)" and drops code backticks', () => {
    expect(parseInline('see [guideline](https://e.org) and `code`')).toEqual([{ text: 'see guideline (https://e.org) and code', style: 'regular' }]);
  });
});

describe('parseLetterMarkdown', () => {
  it('reads headings, paragraphs, lists with one nested level and rules', () => {
    const blocks = parseLetterMarkdown(
      ['# Top', '## Diagnosis', 'Line one', 'line two.', '', '- a', '  - nested', '- b', '1. first', '2) second', '---', '#### deep'].join('\n'),
    );
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, runs: [{ text: 'Top', style: 'bold' }] },
      { kind: 'heading', level: 2, runs: [{ text: 'Diagnosis', style: 'bold' }] },
      { kind: 'paragraph', runs: [{ text: 'Line one line two.', style: 'regular' }] },
      { kind: 'item', depth: 0, marker: '•', runs: [{ text: 'a', style: 'regular' }] },
      { kind: 'item', depth: 1, marker: '◦', runs: [{ text: 'nested', style: 'regular' }] },
      { kind: 'item', depth: 0, marker: '•', runs: [{ text: 'b', style: 'regular' }] },
      { kind: 'item', depth: 0, marker: '1.', runs: [{ text: 'first', style: 'regular' }] },
      { kind: 'item', depth: 0, marker: '2.', runs: [{ text: 'second', style: 'regular' }] },
      { kind: 'rule' },
      { kind: 'heading', level: 3, runs: [{ text: 'deep', style: 'bold' }] },
    ]);
  });

  it('joins an indented continuation line into its list item', () => {
    expect(parseLetterMarkdown('- first part\n  second part')).toEqual([
      { kind: 'item', depth: 0, marker: '•', runs: [{ text: 'first part second part', style: 'regular' }] },
    ]);
  });

  it('keeps italic inside a bold heading as bold italic', () => {
    expect(parseLetterMarkdown('### Plan *now*')[0]).toEqual({
      kind: 'heading',
      level: 3,
      runs: [
        { text: 'Plan ', style: 'bold' },
        { text: 'now', style: 'boldItalic' },
      ],
    });
  });
});
