/**
 * NPI check digit (CMS): a Luhn check over the 15 digits "80840" + the NPI. The prefix is the
 * ISO card-issuer id CMS assigned to US health identifiers, so the check digit is the NPI's 10th.
 */
const NPI_SHAPE = /^\d{10}$/;
const PREFIX = '80840';

/** Luhn sum of `digits` where the last digit is the check digit; valid when divisible by 10. */
function luhnSum(digits: string): number {
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum;
}

export function isValidNpi(npi: string): boolean {
  return typeof npi === 'string' && NPI_SHAPE.test(npi) && luhnSum(PREFIX + npi) % 10 === 0;
}
