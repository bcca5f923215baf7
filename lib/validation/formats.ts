import { isValidNpi } from '../enrollment/npi.js';

/**
 * String formats used by the request schemas, each with the message a caller sees when it fails.
 * Dates are `MM-DD-YYYY` and must exist on the calendar (02-30-2025 does not).
 */

/** MM-DD-YYYY in shape (parseUsDate also checks the calendar). */
export const US_DATE = /^(\d{2})-(\d{2})-(\d{4})$/;

/** Parses MM-DD-YYYY into its parts when it names a real calendar date. */
export function parseUsDate(value: string): { year: number; month: number; day: number } | undefined {
  const match = US_DATE.exec(value);
  if (!match) return undefined;
  const month = Number(match[1]);
  const day = Number(match[2]);
  const year = Number(match[3]);
  if (year < 1800 || month < 1 || month > 12 || day < 1) return undefined;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth ? { year, month, day } : undefined;
}

/** MM-DD-YYYY → YYYYMMDD (X12 D8). The value must already be valid. */
export const usDateToD8 = (value: string): string => `${value.slice(6, 10)}${value.slice(0, 2)}${value.slice(3, 5)}`;

/** MM-DD-YYYY → YYYY-MM-DD. The value must already be valid. */
export const usDateToIso = (value: string): string => `${value.slice(6, 10)}-${value.slice(0, 2)}-${value.slice(3, 5)}`;

/**
 * Not after today. "Today" is the latest calendar day anywhere (UTC+14), so a birth date entered
 * in a timezone ahead of the server is never wrongly called future.
 */
function notInFuture(parts: { year: number; month: number; day: number }, now: Date): boolean {
  const latestToday = new Date(now.getTime() + 14 * 3600_000);
  const today = latestToday.getUTCFullYear() * 10000 + (latestToday.getUTCMonth() + 1) * 100 + latestToday.getUTCDate();
  return parts.year * 10000 + parts.month * 100 + parts.day <= today;
}

const trimmedLength = (value: string, min: number, max: number): boolean => {
  const trimmed = value.trim();
  // More than 2·max UTF-16 units is more than max characters: no need to count a hostile 5 MB value.
  if (trimmed.length > 2 * max) return false;
  const length = [...trimmed].length;
  return length >= min && length <= max;
};

export interface FormatRule {
  validate: (value: string) => boolean;
  message: string;
}

export const FORMATS: Record<string, FormatRule> = {
  'person-name': { validate: (v) => trimmedLength(v, 1, 60), message: 'must be 1 to 60 characters after trimming' },
  'us-date': { validate: (v) => parseUsDate(v) !== undefined, message: 'must be a real calendar date in the form MM-DD-YYYY' },
  'past-us-date': {
    validate: (v) => {
      const parts = parseUsDate(v);
      return parts !== undefined && notInFuture(parts, new Date());
    },
    message: 'must be a real calendar date in the form MM-DD-YYYY, not in the future',
  },
  'member-id': { validate: (v) => trimmedLength(v, 1, 80), message: 'must be 1 to 80 characters' },
  identifier: { validate: (v) => trimmedLength(v, 1, 80), message: 'must be 1 to 80 characters, not blank' },
  'non-blank': { validate: (v) => v.trim() !== '', message: 'must not be blank' },
  npi: { validate: isValidNpi, message: 'must be a 10-digit NPI whose last digit is its check digit (as on the NPPES registry)' },
  ssn: { validate: (v) => /^\d{3}-?\d{2}-?\d{4}$/.test(v), message: 'must be 9 digits (dashes allowed, as 123-45-6789)' },
  // The e-mail syntax check itself is ajv-formats' "email"; only its message is ours.
  email: { validate: () => true, message: 'must be an e-mail address' },
};
