/**
 * Every font file the letter PDF may embed (docs/letter.md#fonts), by npm package and path inside
 * it. The Lambda bundle copies each into `fonts/` beside the handler under its file name (see
 * infra/cdk/stack.ts); locally they are read from node_modules. No imports: the CDK app reads this.
 *
 * Faces: DejaVu Sans (Latin, Greek, Cyrillic; four styles) first, then one face per script, each
 * regular and, where the package has it, bold. `script` says which characters may need the face,
 * so a face is only read from disk when the letter has such a character (a Latin letter reads none).
 */

export interface FontFile {
  /** npm package that ships the file. */
  pkg: string;
  /** Path inside the package. */
  path: string;
}

export interface FontFace {
  id: string;
  regular: FontFile;
  bold?: FontFile;
  italic?: FontFile;
  boldItalic?: FontFile;
  /** Characters this face is for; a fallback face is consulted only for these. */
  script?: RegExp;
  /** Drawn by this face even where DejaVu has a glyph (DejaVu's Arabic and Hebrew are basic). */
  preferred?: boolean;
  /** Shaped with OpenType layout (joining, reordering, marks) and drawn glyph by glyph. */
  shaped: boolean;
}

const dejavu = (file: string): FontFile => ({ pkg: 'dejavu-fonts-ttf', path: `ttf/${file}` });

export const PRIMARY_FACE: FontFace = {
  id: 'latin',
  regular: dejavu('DejaVuSans.ttf'),
  bold: dejavu('DejaVuSans-Bold.ttf'),
  italic: dejavu('DejaVuSans-Oblique.ttf'),
  boldItalic: dejavu('DejaVuSans-BoldOblique.ttf'),
  shaped: false,
};

/** In order of preference: the first face whose `script` matches and that has the glyph draws it. */
export const FALLBACK_FACES: FontFace[] = [
  {
    id: 'arabic',
    regular: { pkg: '@embedpdf/fonts-arabic', path: 'fonts/NotoNaskhArabic-Regular.ttf' },
    bold: { pkg: '@embedpdf/fonts-arabic', path: 'fonts/NotoNaskhArabic-Bold.ttf' },
    script: /[\p{Script=Arabic}]/u,
    preferred: true,
    shaped: true,
  },
  {
    id: 'hebrew',
    regular: { pkg: '@embedpdf/fonts-hebrew', path: 'fonts/NotoSansHebrew-Regular.ttf' },
    bold: { pkg: '@embedpdf/fonts-hebrew', path: 'fonts/NotoSansHebrew-Bold.ttf' },
    script: /[\p{Script=Hebrew}]/u,
    preferred: true,
    shaped: true,
  },
  {
    id: 'devanagari',
    regular: { pkg: '@expo-google-fonts/noto-sans-devanagari', path: '400Regular/NotoSansDevanagari_400Regular.ttf' },
    bold: { pkg: '@expo-google-fonts/noto-sans-devanagari', path: '700Bold/NotoSansDevanagari_700Bold.ttf' },
    script: /[\p{Script=Devanagari}\u1CD0-\u1CFF\uA8E0-\uA8FF]/u,
    shaped: true,
  },
  {
    id: 'cjk-jp',
    regular: { pkg: '@embedpdf/fonts-jp', path: 'fonts/NotoSansJP-Regular.otf' },
    script: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303F\u31F0-\u31FF\uFF00-\uFFEF]/u,
    shaped: true,
  },
  {
    id: 'cjk-kr',
    regular: { pkg: '@embedpdf/fonts-kr', path: 'fonts/NotoSansKR-Regular.otf' },
    script: /[\p{Script=Hangul}\p{Script=Han}\u3000-\u303F\uFF00-\uFFEF]/u,
    shaped: true,
  },
  {
    id: 'cjk-sc',
    regular: { pkg: '@embedpdf/fonts-sc', path: 'fonts/NotoSansHans-Regular.otf' },
    script: /[\p{Script=Han}\u3000-\u303F\uFF00-\uFFEF]/u,
    shaped: true,
  },
  {
    id: 'math',
    regular: { pkg: '@fontsource/noto-sans-math', path: 'files/noto-sans-math-latin-400-normal.woff' },
    script: /[\u{1D400}-\u{1D7FF}\u2100-\u214F\u2190-\u22FF\u27C0-\u27EF\u2980-\u2AFF]/u,
    shaped: true,
  },
  {
    id: 'emoji',
    regular: { pkg: '@expo-google-fonts/noto-emoji', path: '400Regular/NotoEmoji_400Regular.ttf' },
    script: /[\p{Extended_Pictographic}\u{1F1E6}-\u{1F1FF}]/u,
    shaped: true,
  },
];

/** Every file of every face: what a deployment must ship. */
export const ALL_FONT_FILES: FontFile[] = [PRIMARY_FACE, ...FALLBACK_FACES].flatMap((face) =>
  [face.regular, face.bold, face.italic, face.boldItalic].filter((file): file is FontFile => file !== undefined),
);

/** The name a file has in the bundle's `fonts/` folder. */
export const bundledName = (file: FontFile): string => file.path.slice(file.path.lastIndexOf('/') + 1);
