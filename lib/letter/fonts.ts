import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import * as fontkit from 'fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';
import type { FontStyle } from './body-markdown.js';

/**
 * DejaVu Sans for the letter PDF (CONTRACT §6: any Unicode text renders). The TTFs are read once
 * per process. They are parsed by upstream fontkit 2 (its subsets are sound; @pdf-lib/fontkit's
 * are not for every font), behind the `{ create }` adapter pdf-lib's registerFontkit expects.
 *
 * Where the files are: a `fonts/` directory next to this module (the Lambda bundle ships the four
 * TTFs there), else the `dejavu-fonts-ttf` package.
 */

export const FONT_FILES: Record<FontStyle, string> = {
  regular: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  italic: 'DejaVuSans-Oblique.ttf',
  boldItalic: 'DejaVuSans-BoldOblique.ttf',
};

function fontDirectory(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const bundled = join(here, 'fonts');
  if (existsSync(join(bundled, FONT_FILES.regular))) return bundled;
  return join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
}

let fontBytes: Record<FontStyle, Uint8Array> | undefined;
const parsed = new WeakMap<Uint8Array, fontkit.FontkitFont>();

function loadFontBytes(): Record<FontStyle, Uint8Array> {
  if (!fontBytes) {
    const dir = fontDirectory();
    const read = (file: string) => new Uint8Array(readFileSync(join(dir, file)));
    fontBytes = { regular: read(FONT_FILES.regular), bold: read(FONT_FILES.bold), italic: read(FONT_FILES.italic), boldItalic: read(FONT_FILES.boldItalic) };
  }
  return fontBytes;
}

/**
 * pdf-lib calls `create(bytes)` per embed and serialises subsets with `subset.encodeStream()`, which
 * fontkit 2 replaced by `encode()`. Parsed fonts are cached per byte array (a parse costs ms), and
 * each cached font hands out subsets that also speak the old stream API.
 *
 * `layout` is replaced by a cmap lookup per code point. fontkit's shaper costs ~0.3 ms per call and
 * buys nothing here: pdf-lib draws glyphs at their advance widths (no GPOS positioning), ligatures
 * are unwanted (text extraction), and pdf-lib has no bidi, so complex-script shaping could not come
 * out right anyway. Text is NFC-normalised first, so accented Latin uses precomposed glyphs.
 */
export const fontkitAdapter = {
  create(bytes: Uint8Array): fontkit.FontkitFont {
    let font = parsed.get(bytes);
    if (!font) {
      const parsedFont = fontkit.create(bytes);
      const createSubset = parsedFont.createSubset.bind(parsedFont);
      parsedFont.createSubset = () => {
        const subset = createSubset();
        return Object.assign(subset, { encodeStream: () => Readable.from([subset.encode()]) });
      };
      const glyphs = new Map<number, unknown>();
      const glyphFor = parsedFont.glyphForCodePoint as (codePoint: number) => unknown;
      parsedFont.layout = (text: string) => {
        const out: unknown[] = [];
        for (const char of text) {
          const codePoint = char.codePointAt(0)!;
          let glyph = glyphs.get(codePoint);
          if (glyph === undefined) glyphs.set(codePoint, (glyph = glyphFor.call(parsedFont, codePoint)));
          out.push(glyph);
        }
        return { glyphs: out };
      };
      parsed.set(bytes, (font = parsedFont));
    }
    return font;
  },
};

export interface LetterFonts {
  pdf: Record<FontStyle, PDFFont>;
  /** Replaces characters a style cannot draw with U+FFFD and counts them. */
  sanitize(text: string, style: FontStyle): string;
  replacedCharacters(): number;
}

export const REPLACEMENT = '\uFFFD';
const coverage = new Map<FontStyle, Map<number, boolean>>();

export async function embedLetterFonts(doc: PDFDocument): Promise<LetterFonts> {
  const bytes = loadFontBytes();
  doc.registerFontkit(fontkitAdapter as unknown as Parameters<PDFDocument['registerFontkit']>[0]);
  // Ligatures off: pdftotext and screen readers then see "fi" as two letters, as written.
  const embed = (style: FontStyle) => doc.embedFont(bytes[style], { subset: true, features: { liga: false, rlig: false, calt: false } });
  const [regular, bold, italic, boldItalic] = await Promise.all([embed('regular'), embed('bold'), embed('italic'), embed('boldItalic')]);
  let replaced = 0;

  const has = (style: FontStyle, codePoint: number): boolean => {
    let table = coverage.get(style);
    if (!table) coverage.set(style, (table = new Map()));
    let known = table.get(codePoint);
    if (known === undefined) {
      known = fontkitAdapter.create(bytes[style]).hasGlyphForCodePoint(codePoint);
      table.set(codePoint, known);
    }
    return known;
  };

  return {
    pdf: { regular, bold, italic, boldItalic },
    replacedCharacters: () => replaced,
    sanitize(text, style) {
      let out = '';
      for (const char of text.normalize('NFC')) {
        const codePoint = char.codePointAt(0)!;
        if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) {
          out += ' '; // control characters: layout whitespace, not content
        } else if (has(style, codePoint)) {
          out += char;
        } else {
          replaced += 1;
          out += REPLACEMENT;
        }
      }
      return out;
    },
  };
}
