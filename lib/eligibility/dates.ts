/** X12 dates of a 271 (D8 CCYYMMDD, RD8 CCYYMMDD-CCYYMMDD) as the answer uses them. */
import type { Period } from './benefit-row.js';

const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether text is eight digits naming a real calendar date (no Date objects: this runs per DTP). */
function isD8(text: string): boolean {
  if (text.length !== 8) return false;
  let year = 0;
  let month = 0;
  let day = 0;
  for (let i = 0; i < 8; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (i < 4) year = year * 10 + d;
    else if (i < 6) month = month * 10 + d;
    else day = day * 10 + d;
  }
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= DAYS[month]! + (leap ? 1 : 0);
}

/** CCYYMMDD → YYYY-MM-DD; undefined when it is not a real date. */
export function d8ToIso(text: string): string | undefined {
  const value = text.trim();
  return isD8(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}` : undefined;
}

/** The two ends of an RD8 value (CCYYMMDD-CCYYMMDD), when both are real dates. */
function rd8Ends(text: string): [string, string] | undefined {
  const value = text.trim();
  const dash = value.indexOf('-');
  if (dash < 0) return undefined;
  const begin = value.slice(0, dash).trim();
  const end = value.slice(dash + 1).trim();
  return isD8(begin) && isD8(end) ? [begin, end] : undefined;
}

/** A DTP's date(s): one D8 date, or both ends of an RD8; undefined when unreadable. */
export function periodDates(period: Period): { single: string } | { begin: string; end: string } | undefined {
  if (period.format === 'D8') {
    const value = period.value.trim();
    return isD8(value) ? { single: value } : undefined;
  }
  if (period.format === 'RD8') {
    const ends = rd8Ends(period.value);
    return ends ? { begin: ends[0], end: ends[1] } : undefined;
  }
  return undefined;
}

/** An open end ("until further notice") is written 9999-12-31; the answer omits it. */
export const OPEN_END = '9999-12-31';
