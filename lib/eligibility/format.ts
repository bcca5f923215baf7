/**
 * Exact decimal arithmetic and display formatting for benefit figures. Amounts are scaled bigints
 * (never floats), so "0.1 + 0.2" style drift cannot reach a patient's figures; only the final
 * figure is rounded, half away from zero.
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
export function formatPercent(fraction: Decimal): string {
  // ×100 is a scale shift by two.
  const percent: Decimal = fraction.scale >= 2 ? { units: fraction.units, scale: fraction.scale - 2 } : { units: fraction.units * pow10(2 - fraction.scale), scale: 0 };
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

export function percentOrNA(value: Decimal | null | undefined): string {
  return value ? formatPercent(value) : NOT_AVAILABLE;
}

const EXACT_DIGITS = 15;
const POWERS: readonly number[] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * The value of a decimal text rounded half away from zero to units of 10^-places, using doubles
 * only where every step is exact (at most 15 significant digits); null when that does not hold
 * (or the text is not a decimal), so the caller takes the BigInt path.
 */
function roundedText(text: string, places: number): { magnitude: number; negative: boolean } | null {
  let i = 0;
  let end = text.length;
  while (i < end && text.charCodeAt(i) === 32) i++;
  while (end > i && text.charCodeAt(end - 1) === 32) end--;
  let negative = false;
  const first = text.charCodeAt(i);
  if (first === 45 || first === 43) {
    negative = first === 45;
    i++;
  }
  let units = 0;
  let digits = 0;
  let seen = false;
  let scale = 0;
  let point = false;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      seen = true;
      units = units * 10 + (c - 48);
      if (units > 0 || digits > 0) digits++;
      if (point) scale++;
    } else if (c === 46 && !point) {
      point = true;
    } else {
      return null;
    }
  }
  if (!seen || digits > EXACT_DIGITS || scale > EXACT_DIGITS) return null;
  let magnitude: number;
  if (scale <= places) {
    if (digits + places - scale > EXACT_DIGITS) return null;
    magnitude = units * POWERS[places - scale]!;
  } else {
    const divisor = POWERS[scale - places]!;
    magnitude = Math.floor(units / divisor);
    if ((units - magnitude * divisor) * 2 >= divisor) magnitude += 1;
  }
  return { magnitude, negative: negative && magnitude !== 0 };
}

function groupNumber(whole: number): string {
  const digits = String(whole);
  return digits.length <= 3 ? digits : group(digits);
}

/** moneyOrNA(parseDecimal(text)), without BigInt when the figure is small enough to be exact. */
export function moneyTextOrNA(text: string): string {
  const r = roundedText(text, 2);
  if (r === null) return moneyOrNA(parseDecimal(text));
  const cents = r.magnitude % 100;
  return `${r.negative ? '-' : ''}$${groupNumber((r.magnitude - cents) / 100)}.${cents < 10 ? '0' : ''}${cents}`;
}

/** percentOrNA(parseDecimal(text)), without BigInt when the figure is small enough to be exact. */
export function percentTextOrNA(text: string): string {
  // The fraction ×100 to two decimals is the fraction to four decimals.
  const r = roundedText(text, 4);
  if (r === null) return percentOrNA(parseDecimal(text));
  const hundredths = r.magnitude % 100;
  const whole = (r.magnitude - hundredths) / 100;
  const fraction = hundredths === 0 ? '' : hundredths % 10 === 0 ? `.${hundredths / 10}` : `.${hundredths < 10 ? '0' : ''}${hundredths}`;
  return `${r.negative ? '-' : ''}${whole}${fraction}%`;
}
