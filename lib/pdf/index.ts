/**
 * The service's PDF toolkit (docs/architecture.md#folders, docs/letter.md#fonts): pdf-lib documents
 * whose text in any script is drawn with the bundled embedded faces (a fallback chain, bidi, OpenType
 * shaping), and word wrapping of styled runs. The letter and the printable eligibility summary both
 * draw with it. The PDF code (fontkit, bidi) is in these modules: import them only where a PDF is made.
 */

export { FALLBACK_FACES, PRIMARY_FACE, ALL_FONT_FILES, bundledName, type FontFace, type FontFile } from './font-files.js';
export { embedPdfFonts, type FaceKey, type PdfFonts } from './fonts.js';
export { RTL, TEXT, textDrawer } from './draw-text.js';
export { wrapRuns, type FaceRun, type Measure, type PlacedRun, type WrappedLine } from './wrap.js';
export type { FontStyle, Run } from './runs.js';
