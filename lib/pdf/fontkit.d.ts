/** The slice of fontkit 2 the letter uses (the package ships no types). */
declare module 'fontkit' {
  export interface FontkitSubset {
    includeGlyph(glyph: number | { id: number }): number;
    encode(): Uint8Array;
  }
  export interface FontkitFont {
    hasGlyphForCodePoint(codePoint: number): boolean;
    createSubset(): FontkitSubset;
    [key: string]: unknown;
  }
  export function create(buffer: Uint8Array, postscriptName?: string): FontkitFont;
}
