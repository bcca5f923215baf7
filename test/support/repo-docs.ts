import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository's own files, for the tests that hold docs and code to each other. */

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A file of the repository, by its path from the root. */
export const readRepoFile = (path: string): string => readFileSync(`${ROOT}${path}`, 'utf8');

/** GitHub's heading anchors of a markdown file: lower case, punctuation dropped, spaces to hyphens. */
export function slugsOf(doc: string): Set<string> {
  return new Set(
    [...readRepoFile(doc).matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
      m[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}
