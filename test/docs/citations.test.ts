import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { readRepoFile as read, ROOT, slugsOf } from '../support/repo-docs.js';

/** Code cites the repository's own docs (docs/<guide>.md#<heading>), never a document outside it. */

function sourceFiles(dir: string): string[] {
  return readdirSync(`${ROOT}${dir}`).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (name === 'node_modules') return [];
    return statSync(`${ROOT}${path}`).isDirectory() ? sourceFiles(path) : /\.(ts|js|py)$/.test(name) ? [path] : [];
  });
}

describe('citations in the code', () => {
  const files = ['lib', 'functions', 'infra', 'test', 'bench', 'examples'].flatMap(sourceFiles);
  // The README's links to the guides are held to the same rule.
  const linking = [...files, 'README.md'];

  it('cite only documents in the repository, never the service contract or spec outside it', () => {
    // Section marks are allowed only for published standards (ISO 32000, RFC n); "spec n.n", "spec-exact",
    // "the spec's …" and "the contract's …" name documents a reader of this repository does not have.
    const OUTSIDE = [
      /CONTRACT\s*§/,
      /(?<!(?:ISO 32000(?:-1)?|RFC \d+) )§\s*\d/,
      /\bspec(?:-exact| \d|'s\b|’s\b)/i,
      /\b(?:from|by) the spec\b|\bthe spec fixes\b/i,
      /\bthe contract(?:'s)?\b/i,
    ];
    const checked = [...files, 'README.md', ...readdirSync(`${ROOT}docs`).map((name) => `docs/${name}`)];
    // This file spells the patterns out, so it is the one file not held to them.
    const outside = checked.filter((file) => file !== 'test/docs/citations.test.ts' && OUTSIDE.some((pattern) => pattern.test(read(file))));
    expect(outside).toEqual([]);
  });

  it('point at docs and headings that exist', () => {
    const broken: string[] = [];
    for (const file of linking) {
      for (const [, doc, anchor] of read(file).matchAll(/\bdocs\/([a-z0-9-]+\.md)(?:#([a-z0-9-]+))?/g)) {
        if (!existsSync(`${ROOT}docs/${doc}`)) broken.push(`${file}: docs/${doc} does not exist`);
        else if (anchor && !slugsOf(`docs/${doc}`).has(anchor)) broken.push(`${file}: docs/${doc}#${anchor} has no such heading`);
      }
    }
    expect(broken).toEqual([]);
  });
});
