import { fail, ok, serviceError, type Result } from '../../errors/index.js';
import { withoutMarkers } from './citations.js';
import { CANNOT_WRITE_SENTINEL } from './prompt.js';

/**
 * Gatekeeper between the model and the letter (docs/letter.md#the-pipeline): a body that is empty, cut off, a refusal
 * or full of template blanks becomes 422 LETTER_NOT_GENERATED. Reasons never quote the text.
 */

const MIN_BODY_CHARS = 250;

const PLACEHOLDER_WORDS =
  'name|date|address|phone|telephone|e-?mail|signature|npi|dob|birth|title|policy|member|id|number|insert|enter|specify|physician|provider|doctor|facility|clinic|city|state|zip|amount|cost';

/** A table of checks, in order; the first that matches names the reason. */
const PLACEHOLDERS: RegExp[] = [
  // [Patient Name], [Date], [Insert diagnosis]: bracketed words naming a field, but not a markdown link.
  new RegExp(`\\[(?:[^\\]\\n]{0,40}\\b(?:${PLACEHOLDER_WORDS})\\b[^\\]\\n]{0,40}|(?:your|insert|enter|add)\\b[^\\]\\n]{0,60})\\](?!\\()`, 'i'),
  /\{\{[^}]*\}\}/, // {{patient_name}}
  /<\s*(?:insert|enter|add|your|placeholder)\b[^>]*>/i, // <insert date>
  /\b[Xx]{3,}\b/, // XXX, xxxx
  /_{5,}/, // a blank to fill by hand
];

const REFUSALS: RegExp[] = [
  new RegExp(`\\b${CANNOT_WRITE_SENTINEL}\\b`),
  /\bI(?:'|’)?m sorry,? but\b/i,
  /\bI am sorry,? but\b/i,
  /\bI (?:can(?:'|’)?t|cannot|can not|am unable to|(?:'|’)?m unable to|won(?:'|’)?t|will not) (?:help|assist|write|create|generate|draft|produce|provide|complete|comply)\b/i,
  /\bI(?:'|’)m (?:not able|unable) to (?:help|assist|write|create|generate|draft|produce|provide|complete)\b/i,
  /\bAs an AI(?: language model)?\b/i,
];

/**
 * A letter body has a few dozen lines and a handful of brackets. The markdown parser's work grows
 * fast with both (40,000 list items cost it 11 s, 40,000 "[b]" 22 s; docs/letter.md#the-models-answer),
 * so an answer with more of either than any letter is refused before it is parsed.
 */
const MAX_LINES = 1_000;
const MAX_BRACKETS = 1_000;

const countOf = (text: string, char: string): number => {
  let count = 0;
  for (let at = text.indexOf(char); at >= 0; at = text.indexOf(char, at + 1)) count += 1;
  return count;
};

const notGenerated = (message: string) => fail<string>(serviceError('LETTER_NOT_GENERATED', { message }));

/** A whole answer wrapped in one ```markdown fence is unwrapped rather than rejected. */
const unfence = (text: string): string => {
  const match = /^```[a-z]*\n([\s\S]*?)\n```$/i.exec(text);
  return match ? match[1].trim() : text;
};

/** Returns the usable body (trimmed) or a 422 saying why it is not usable. Citation markers are ignored by the checks. */
export function checkLetterBody(text: string, stopReason: string | null | undefined): Result<string> {
  if (stopReason === 'refusal') return notGenerated('The AI declined to write this letter');
  if (stopReason === 'max_tokens' || stopReason === 'model_context_window_exceeded') {
    return notGenerated('The AI output was cut off before the letter was complete');
  }
  const body = unfence(text.trim());
  const plain = withoutMarkers(body);
  if (plain.trim() === '') return notGenerated('The AI returned no letter text');
  if (REFUSALS.some((pattern) => pattern.test(plain))) {
    return notGenerated('The AI could not write a letter from this document (it may not be procedure notes)');
  }
  if (PLACEHOLDERS.some((pattern) => pattern.test(plain))) {
    return notGenerated('The AI output contains unfilled placeholders');
  }
  if (plain.replace(/\s+/g, '').length < MIN_BODY_CHARS) return notGenerated('The AI output is too short to be a letter');
  if (countOf(plain, '\n') >= MAX_LINES || countOf(plain, '[') > MAX_BRACKETS) {
    return notGenerated('The AI output is not shaped like a letter (far more lines or brackets than a letter has)');
  }
  return ok(body);
}
