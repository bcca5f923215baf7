/**
 * The service's PDF toolkit (docs/architecture.md#folders, docs/letter.md#fonts): pdf-lib documents
 * whose text in any script is drawn with the bundled embedded faces (a fallback chain, bidi, OpenType
 * shaping), and word wrapping of styled runs. The letter and the printable eligibility summary both
 * draw with it. The PDF code (fontkit, bidi) is in these modules: import them only where a PDF is made.
 *
 * @example
 * ```ts
 * import { onePagePdf } from '../pdf/index.js';
 * const meta = { title: 'Summary', creator: 'Eligibility API', date: new Date(0) };
 * const bytes = await onePagePdf(meta, (page) => page.text([{ text: 'Covered' }], { size: 11, leading: 14 }));
 * ```
 */

export { FALLBACK_FACES, PRIMARY_FACE, ALL_FONT_FILES, bundledName, type FontFace, type FontFile } from './font-files.js';
export { embedPdfFonts, type FaceKey, type PdfFonts } from './fonts.js';
export { RTL, TEXT, textDrawer } from './draw-text.js';
export { wrapRuns, type FaceRun, type Measure, type PlacedRun, type WrappedLine } from './wrap.js';
export type { FontStyle, Run } from './runs.js';

export { CONTENT_WIDTH, onePagePdf, type Cell, type PageWriter } from './one-page.js';
