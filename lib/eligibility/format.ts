/**
 * Exact decimal arithmetic and the one display formatter of benefit figures (money and percent), with
 * its inverse (centsOf, basisPointsOf) for code that computes on figures already formatted (the estimate,
 * FHIR). Amounts are scaled bigints (never floats), so "0.1 + 0.2" style drift cannot reach a patient's
 * figures; only the final figure is rounded, half away from zero.
 */
import { NOT_AVAILABLE } from './types.js';

/** value = units / 10^scale. */
export interface Decimal {
  units: bigint;
  scale: number;
}

const TEN = 10n;

function pow10(n: number): bigint {
  return TEN ** BigInt(n);
}

/** Parses an X12 R (decimal) value: optional sign, digits, optional fraction. Anything else → null. */
export function parseDecimal(text: string): Decimal | null {
  const s = text.trim();
  let i = 0;
  let negative = false;
  if (s[0] === '-' || s[0] === '+') {
    negative = s[0] === '-';
    i = 1;
  }
  let digits = '';
  let scale = 0;
  let seenPoint = false;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      digits += s[i];
      if (seenPoint) scale++;
    } else if (c === 46 && !seenPoint) {
      seenPoint = true;
    } else {
      return null;
    }
  }
  if (digits === '') return null;
  const units = BigInt(digits);
  return { units: negative ? -units : units, scale };
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.units * pow10(scale - a.scale), b.units * pow10(scale - b.scale), scale];
}

export function subtract(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = align(a, b);
  return { units: x - y, scale };
}

export function max(a: Decimal, b: Decimal): Decimal {
  const [x, y] = align(a, b);
  return x >= y ? a : b;
}

export const ZERO: Decimal = { units: 0n, scale: 0 };

/** The value rounded half away from zero to `places` decimals, as units of 10^-places. */
export function roundUnits(value: Decimal, places: number): bigint {
  if (value.scale <= places) return value.units * pow10(places - value.scale);
  const divisor = pow10(value.scale - places);
  const negative = value.units < 0n;
  const magnitude = negative ? -value.units : value.units;
  let quotient = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) quotient += 1n;
  return negative ? -quotient : quotient;
}

function group(digits: string): string {
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return out;
}

/** "$1,234.50"; negative amounts as "-$5.00". */
export function formatMoney(value: Decimal): string {
  const cents = roundUnits(value, 2);
  const negative = cents < 0n;
  const magnitude = negative ? -cents : cents;
  const whole = (magnitude / 100n).toString();
  const fraction = (magnitude % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}$${group(whole)}.${fraction}`;
}

/** A fraction (EB08, 0.2) as a percent: ×100, two decimals max, trailing zeros dropped ("20%", "12.5%"). */
function formatPercent(fraction: Decimal): string {
  // ×100 is a scale shift by two.
  const percent: Decimal =
    fraction.scale >= 2 ? { units: fraction.units, scale: fraction.scale - 2 } : { units: fraction.units * pow10(2 - fraction.scale), scale: 0 };
  const hundredths = roundUnits(percent, 2);
  const negative = hundredths < 0n;
  const magnitude = negative ? -hundredths : hundredths;
  const whole = (magnitude / 100n).toString();
  let fractionDigits = (magnitude % 100n).toString().padStart(2, '0');
  while (fractionDigits.endsWith('0')) fractionDigits = fractionDigits.slice(0, -1);
  return `${negative ? '-' : ''}${whole}${fractionDigits === '' ? '' : `.${fractionDigits}`}%`;
}

export function moneyOrNA(value: Decimal | null | undefined): string {
  return value ? formatMoney(value) : NOT_AVAILABLE;
}

function percentOrNA(value: Decimal | null | undefined): string {
  return value ? formatPercent(value) : NOT_AVAILABLE;
}

/** Whole dollars with at most two decimals, as payers mostly write them: shown without arithmetic. */
const PLAIN_AMOUNT = /^0*(\d+?)(?:\.(\d{0,2}))?$/;

/** An X12 decimal text (EB07) as money text, or N/A when it is not a number. */
export function moneyText(text: string): string {
  const plain = PLAIN_AMOUNT.exec(text);
  if (plain) return `$${group(plain[1]!)}.${(plain[2] ?? '').padEnd(2, '0')}`;
  return moneyOrNA(parseDecimal(text));
}

/** An X12 decimal text (EB08, a fraction) as percent text, or N/A when it is not a number. */
export const percentText = (text: string): string => percentOrNA(parseDecimal(text));

/**
 * formatMoney read back: "$1,234.50" → 123450n cents, exactly. undefined for "N/A", for a negative figure
 * as formatMoney writes it ("-$10.00"), which no caller counts as an amount, and for any text that is not
 * "$" and a decimal.
 */
export function centsOf(text: string): bigint | undefined {
  if (!text.startsWith('$')) return undefined;
  const value = parseDecimal(text.slice(1).replaceAll(',', ''));
  return value === null ? undefined : roundUnits(value, 2);
}

/** formatPercent read back: "12.5%" → 1250n hundredths of a percent (basis points), "-5%" → -500n; undefined for "N/A". */
export function basisPointsOf(text: string): bigint | undefined {
  if (!text.endsWith('%')) return undefined;
  const value = parseDecimal(text.slice(0, -1));
  return value === null ? undefined : roundUnits(value, 2);
}
