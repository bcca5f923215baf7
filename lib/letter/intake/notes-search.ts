/**
 * Searching the notes' own text layer (docs/letter.md#citations, docs/letter.md#codes), built once
 * per letter and shared by the citation and code checks. Each index is built on first use in one
 * pass over the pages, so a lookup costs the size of what is looked up, not the size of the notes:
 * an answer that cites or codes 20,000 times pays for the lookups it is allowed, not 20,000 scans.
 */

export interface NotesSearch {
  /** Whether `passage` sits on `page` (1-based) of the notes, whitespace and case aside, maybe running on into the next page. */
  passageOn(page: number, passage: string): boolean;
  /** Pages (1-based, ascending) whose text holds `code` as a whole token, case and dots between letters and digits ignored. */
  codePages(code: string): number[];
}

/** Whitespace and case aside (and compatibility forms: ligatures, full-width letters). */
const searchable = (text: string) => text.normalize('NFKC').toLowerCase().replace(/\s+/gu, '');

/** A code as the notes' tokens are keyed: upper case, no dots. */
export const codeKey = (code: string): string => code.toUpperCase().replace(/\./g, '');

/** Every maximal run of A–Z and 0–9 on each page (upper-cased, dots between letters and digits dropped) → its pages. */
function codeIndex(pages: string[]): Map<string, number[]> {
  const index = new Map<string, number[]>();
  pages.forEach((text, at) => {
    const page = at + 1;
    for (const [token] of text
      .toUpperCase()
      .replace(/(?<=[A-Z0-9])\.(?=[A-Z0-9])/g, '')
      .matchAll(/[A-Z0-9]+/g)) {
      const list = index.get(token);
      if (!list) index.set(token, [page]);
      else if (list[list.length - 1] !== page) list.push(page);
    }
  });
  return index;
}

/** The search over `pages` (null for a scan: every passage is taken on its page's word, no code is found). */
export function searchNotes(pages: string[] | null): NotesSearch {
  let folded: string[] | undefined;
  let codes: Map<string, number[]> | undefined;
  return {
    passageOn(page, passage) {
      if (!pages) return true;
      folded ??= pages.map(searchable);
      const here = folded[page - 1];
      const needle = searchable(passage);
      if (here === undefined || needle === '') return false;
      const at = (here + (folded[page] ?? '')).indexOf(needle);
      return at >= 0 && at < Math.max(here.length, 1);
    },
    codePages(code) {
      if (!pages) return [];
      codes ??= codeIndex(pages);
      return [...(codes.get(codeKey(code)) ?? [])];
    },
  };
}
