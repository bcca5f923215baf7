/** A style of the bundled faces (docs/letter.md#fonts): each face has regular, and may have bold, italic, bold italic. */
export type FontStyle = 'regular' | 'bold' | 'italic' | 'boldItalic';

/** A piece of text in one style, the unit every PDF writer lays out and wraps. */
export interface Run {
  text: string;
  style: FontStyle;
  /** A citation marker ("[p. 3]") in a letter: written as is, never escaped or edited. */
  marker?: true;
}
