/**
 * Exact decimal arithmetic, and the one display formatter of figures (money as "$1,234.50", rates as
 * "12.5%"). Amounts are scaled bigints (never floats), so "0.1 + 0.2" style drift cannot reach a
 * patient's figures; only the final figure is rounded, half away from zero. Nothing here reads
 * formatted text back: figures travel as numbers (figures.ts) and are formatted at the edges.
 */

/** value = units / 10^scale. */
export interface Decimal {
  units: bigint;
  scale: number;
}

const TEN = 10n;
/** 10^0 … 10^8, the powers figures need, made once (a bigint power is slow to make). */
const POWERS: readonly bigint[] = Array.from({ length: 9 }, (_, n) => TEN ** BigInt(n));
/** Up to 15 digits a double holds exactly, and reading them as a number is faster than as a bigint. */
const EXACT_DIGITS = 15;

function pow10(n: number): bigint {
  return n < POWERS.length ? POWERS[n]! : TEN ** BigInt(n);
}

/** Parses an X12 R (decimal) value: optional sign, digits, optional fraction. Anything else → null. */
export function parseDecimal(text: string): Decimal | null {
  const s = text.trim();
  let start = 0;
  let negative = false;
  if (s[0] === '-' || s[0] === '+') {
    negative = s[0] === '-';
    start = 1;
  }
  let point = -1;
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) continue;
    if (c !== 46 || point >= 0) return null;
    point = i;
  }
  const digits = point < 0 ? s.slice(start) : s.slice(start, point) + s.slice(point + 1);
  if (digits === '') return null;
  const units = digits.length <= EXACT_DIGITS ? BigInt(Number(digits)) : BigInt(digits);
  return { units: negative ? -units : units, scale: point < 0 ? 0 : s.length - point - 1 };
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

/** Below this a bigint is exactly a double, and double arithmetic on it is faster (and as exact). */
const EXACT_NUMBER = BigInt(Number.MAX_SAFE_INTEGER);

/** |value| split into its hundreds and the two-digit rest: exact at any size. */
function hundreds(value: bigint): { negative: boolean; whole: string; rest: string } {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  if (magnitude <= EXACT_NUMBER) {
    const n = Number(magnitude);
    const rest = n % 100;
    return { negative, whole: String((n - rest) / 100), rest: rest < 10 ? `0${rest}` : String(rest) };
  }
  return { negative, whole: (magnitude / 100n).toString(), rest: (magnitude % 100n).toString().padStart(2, '0') };
}

/** Whole cents as money text: 123450n → "$1,234.50" (US grouping); a negative amount as "-$5.00". */
export function formatMoney(cents: bigint): string {
  const { negative, whole, rest } = hundreds(cents);
  return `${negative ? '-' : ''}$${whole.length > 3 ? group(whole) : whole}.${rest}`;
}

/** Basis points as a percentage, trailing zeros dropped: 2000n → "20%", 1250n → "12.5%", 0n → "0%". */
export function formatRate(basisPoints: bigint): string {
  const { negative, whole, rest } = hundreds(basisPoints);
  const fraction = rest === '00' ? '' : rest.endsWith('0') ? rest[0]! : rest;
  return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}%`;
}
