import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import * as fontkit from 'fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';
import type { FontStyle } from './runs.js';
import { bundledName, FALLBACK_FACES, PRIMARY_FACE, type FontFace, type FontFile } from './font-files.js';

/**
 * The letter's fonts (docs/letter.md#fonts): a fallback chain of embedded faces, each character
 * drawn by the first face that has it (DejaVu Sans first; Arabic and Hebrew by their Noto faces),
 * anything no face has drawn as U+FFFD and counted. Files are read and parsed once per process, and
 * only when a letter has a character that needs them. Faces are parsed by upstream fontkit 2 behind
 * the `{ create }` adapter pdf-lib's registerFontkit expects.
 */

/** A face in one style, e.g. "latin:bold" or "arabic:regular". */
export type FaceKey = `${string}:${FontStyle}`;

const REPLACEMENT = '\uFFFD';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

/** `fonts/<name>` beside the bundled handler in Lambda, else the npm package in node_modules. */
function fontPath(file: FontFile): string {
  const bundled = join(here, 'fonts', bundledName(file));
  if (existsSync(bundled)) return bundled;
  for (const dir of require.resolve.paths(file.pkg) ?? []) {
    const candidate = join(dir, file.pkg, file.path);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`font file ${file.pkg}/${file.path} is not installed`);
}

const fileBytes = new Map<string, Uint8Array>();
const readFont = (file: FontFile): Uint8Array => {
  const key = `${file.pkg}/${file.path}`;
  let bytes = fileBytes.get(key);
  if (!bytes) {
    bytes = new Uint8Array(readFileSync(fontPath(file)));
    fileBytes.set(key, bytes);
  }
  return bytes;
};

interface Glyph {
  id: number;
  advanceWidth: number;
  codePoints: number[];
}
interface GlyphPosition {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
}
export interface GlyphRun {
  glyphs: Glyph[];
  positions: GlyphPosition[];
  advanceWidth: number;
}
type Shape = (text: string, features?: Record<string, boolean>, script?: string, language?: string, direction?: 'ltr' | 'rtl') => GlyphRun;

const parsed = new WeakMap<Uint8Array, fontkit.FontkitFont>();
/** Encoded subsets kept per face (a few hundred KB at most). */
const MAX_CACHED_SUBSETS = 16;
/** Registered first in every DejaVu face, in this order, so Latin letters share one subset layout. */
const PRINTABLE_ASCII = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
const shapers = new WeakMap<fontkit.FontkitFont, Shape>();

/**
 * pdf-lib calls `create(bytes)` per embed and serialises subsets with `subset.encodeStream()`, which
 * fontkit 2 replaced by `encode()`. Parsed fonts are cached per byte array (a parse costs ms).
 *
 * `layout` (what pdf-lib calls for drawText and widths) is a cmap lookup per code point: DejaVu's
 * Latin, Greek and Cyrillic need no shaping, and ligatures would hurt text extraction. The real
 * OpenType layout stays available as the face's shaper for scripts that need it (see shape()).
 */
const fontkitAdapter = {
  create(bytes: Uint8Array): fontkit.FontkitFont {
    let font = parsed.get(bytes);
    if (!font) {
      const parsedFont = fontkit.create(bytes);
      const createSubset = parsedFont.createSubset.bind(parsedFont);
      // Encoded subsets are kept per glyph list: DejaVu faces start every letter with the same printable
      // ASCII run (see embedPdfFonts), so most letters reuse one encoding instead of re-encoding it.
      const encoded = new Map<string, Uint8Array>();
      parsedFont.createSubset = () => {
        const subset = createSubset() as fontkit.FontkitSubset & { glyphs: number[] };
        const encode = () => {
          const key = subset.glyphs.join(',');
          let bytes = encoded.get(key);
          if (!bytes) {
            if (encoded.size >= MAX_CACHED_SUBSETS) encoded.delete(encoded.keys().next().value!);
            bytes = subset.encode();
            encoded.set(key, bytes);
          }
          return bytes;
        };
        return Object.assign(subset, { encodeStream: () => Readable.from([encode()]) });
      };
      shapers.set(parsedFont, (parsedFont.layout as Shape).bind(parsedFont));
      const glyphs = new Map<number, unknown>();
      const glyphFor = parsedFont.glyphForCodePoint as (codePoint: number) => unknown;
      parsedFont.layout = (text: string) => {
        const out: unknown[] = [];
        for (const char of text) {
          const codePoint = char.codePointAt(0)!;
          let glyph = glyphs.get(codePoint);
          if (glyph === undefined) {
            // fontkit caches one glyph object per glyph id, carrying the code point it was first asked
            // for; where two characters share a glyph (Greek Π and Cyrillic П in DejaVu), the PDF's
            // ToUnicode map must still give each document's own character. A per-code-point view does.
            const shared = glyphFor.call(parsedFont, codePoint) as object;
            glyph = Object.create(shared, { codePoints: { value: [codePoint] } });
            glyphs.set(codePoint, glyph);
          }
          out.push(glyph);
        }
        return { glyphs: out };
      };
      font = parsedFont;
      parsed.set(bytes, font);
    }
    return font;
  },
};

const fileFor = (face: FontFace, style: FontStyle): FontFile => {
  const bold = style === 'bold' || style === 'boldItalic';
  if (style === 'boldItalic' && face.boldItalic) return face.boldItalic;
  if (style === 'italic' && face.italic) return face.italic;
  return bold && face.bold ? face.bold : face.regular;
};

const fontOf = (face: FontFace, style: FontStyle) => fontkitAdapter.create(readFont(fileFor(face, style)));

/** Whether a face has a glyph for a code point (regular style decides: styles share coverage). */
const coverage = new Map<string, Map<number, boolean>>();
function faceHas(face: FontFace, codePoint: number): boolean {
  let table = coverage.get(face.id);
  if (!table) {
    table = new Map();
    coverage.set(face.id, table);
  }
  let known = table.get(codePoint);
  if (known === undefined) {
    known = fontOf(face, 'regular').hasGlyphForCodePoint(codePoint);
    table.set(codePoint, known);
  }
  return known;
}

/** Marks, joiners, variation selectors and emoji modifiers stay with the character before them. */
// biome-ignore lint/suspicious/noMisleadingCharacterClass: the class lists combining characters on purpose, each on its own.
const ATTACHES = /[\p{M}\u200C\u200D\uFE00-\uFE0F\u{1F3FB}-\u{1F3FF}\u{E0020}-\u{E007F}]/u;
/** Spaces and punctuation shared by all scripts: kept in the face of the run they sit in, when it has them. */
const NEUTRAL = /[\p{Zs}\p{P}\p{S}\p{N}]/u;

/** The face that draws `char`, or null when none has it; cached per code point (it does not depend on style). */
const resolved = new Map<number, FontFace | null>();
function faceFor(char: string, codePoint: number): FontFace | null {
  let face = resolved.get(codePoint);
  if (face === undefined) {
    face = null;
    for (const f of FALLBACK_FACES) if (f.preferred && f.script!.test(char) && faceHas(f, codePoint)) face ??= f;
    if (!face && faceHas(PRIMARY_FACE, codePoint)) face = PRIMARY_FACE;
    if (!face) for (const f of FALLBACK_FACES) if (!f.preferred && f.script!.test(char) && faceHas(f, codePoint)) face ??= f;
    resolved.set(codePoint, face);
  }
  return face;
}

interface Segment {
  text: string;
  face: FaceKey;
}

const FACES = new Map<string, FontFace>([PRIMARY_FACE, ...FALLBACK_FACES].map((face) => [face.id, face]));
const faceOfKey = (key: FaceKey): { face: FontFace; style: FontStyle } => {
  const [id, style] = key.split(':') as [string, FontStyle];
  return { face: FACES.get(id)!, style };
};

/**
 * Splits text into runs of one face each; characters no face has become U+FFFD. `onReplaced`
 * counts them. Pure apart from the (lazy, cached) font reads.
 */
function segmentText(text: string, style: FontStyle, onReplaced: (count: number) => void = () => {}): Segment[] {
  const segments: Segment[] = [];
  let current: { text: string; face: FontFace } | undefined;
  let replaced = 0;
  const flush = () => {
    if (current) segments.push({ text: current.text, face: `${current.face.id}:${style}` });
    current = undefined;
  };
  for (const raw of text.normalize('NFC')) {
    const codePoint = raw.codePointAt(0)!;
    // Control characters are layout whitespace, not content.
    const char = codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0) ? ' ' : raw;
    const cp = char.codePointAt(0)!;
    // Fast path: ASCII in a DejaVu run (most of any letter).
    if (cp < 0x80 && current?.face === PRIMARY_FACE) {
      current.text += char;
      continue;
    }
    const attaches = cp >= 0x300 && ATTACHES.test(char);
    if (current && (attaches || (current.face !== PRIMARY_FACE && NEUTRAL.test(char))) && faceHas(current.face, cp)) {
      current.text += char;
      continue;
    }
    if (current && attaches) continue; // a joiner or selector the run's face lacks: nothing to draw
    let face = faceFor(char, cp);
    let drawn = char;
    if (!face) {
      replaced += 1;
      face = PRIMARY_FACE;
      drawn = REPLACEMENT;
    }
    if (current?.face !== face) {
      flush();
      current = { text: '', face };
    }
    current.text += drawn;
  }
  flush();
  if (replaced) onReplaced(replaced);
  return segments;
}

/** The OpenType shaping of `text` in a face (glyphs in visual order for rtl), in font units. */
export function shape(key: FaceKey, text: string, direction: 'ltr' | 'rtl'): { run: GlyphRun; unitsPerEm: number } {
  const { face, style } = faceOfKey(key);
  const font = fontOf(face, style);
  // Ligatures stay on for shaped scripts (Arabic lam-alef is required); extraction reads ActualText.
  const run = shapers.get(font)!(text, undefined, undefined, undefined, direction);
  return { run, unitsPerEm: font.unitsPerEm as number };
}

export const isShaped = (key: FaceKey): boolean => faceOfKey(key).face.shaped;

export interface PdfFonts {
  /** The embedded font for a face key (embedded on first use in this document). */
  pdf(key: FaceKey): PDFFont;
  /** Splits text by face, counting replacements for this document. */
  segments(text: string, style: FontStyle): Segment[];
  replacedCharacters(): number;
}

/**
 * Embeds the faces `texts` need into `doc`: DejaVu for every style used, and each fallback face a
 * character asks for. Nothing a Latin letter does not use is read, parsed or embedded.
 */
export async function embedPdfFonts(doc: PDFDocument, texts: Array<{ text: string; style: FontStyle }>): Promise<PdfFonts> {
  doc.registerFontkit(fontkitAdapter as unknown as Parameters<PDFDocument['registerFontkit']>[0]);
  const needed = new Set<FaceKey>(['latin:regular', 'latin:bold']);
  for (const { text, style } of texts) {
    for (const segment of segmentText(text, style)) {
      needed.add(segment.face);
      needed.add(`${segment.face.split(':')[0]}:regular` as FaceKey);
    }
  }

  const embedded = new Map<FaceKey, PDFFont>();
  await Promise.all(
    [...needed].map(async (key) => {
      const { face, style } = faceOfKey(key);
      // Ligatures off for DejaVu: pdftotext and screen readers then see "fi" as two letters, as written.
      const features = face.shaped ? undefined : { liga: false, rlig: false, calt: false };
      const font = await doc.embedFont(readFont(fileFor(face, style)), { subset: true, ...(features ? { features } : {}) });
      if (face === PRIMARY_FACE) font.encodeText(PRINTABLE_ASCII); // the shared Latin layout (see createSubset)
      embedded.set(key, font);
    }),
  );
  let replaced = 0;
  return {
    pdf(key) {
      // A style the first pass did not see falls back to the face's regular, then to DejaVu.
      const font = embedded.get(key) ?? embedded.get(`${key.split(':')[0]}:regular` as FaceKey) ?? embedded.get('latin:regular');
      if (!font) throw new Error(`face ${key} was not embedded`);
      return font;
    },
    segments: (text, style) => segmentText(text, style, (count) => (replaced += count)),
    replacedCharacters: () => replaced,
  };
}
