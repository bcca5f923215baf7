import { describe, it, expect } from '@jest/globals';
import { isValidNpi } from '../../lib/enrollment/npi.js';

describe('isValidNpi', () => {
  it('accepts the CMS worked example 1234567893', () => {
    expect(isValidNpi('1234567893')).toBe(true);
  });

  it('rejects every other check digit for the same first nine digits', () => {
    for (let d = 0; d <= 9; d++) {
      if (d !== 3) expect(isValidNpi(`123456789${d}`)).toBe(false);
    }
  });

  it('detects a single-digit typo and an adjacent transposition', () => {
    expect(isValidNpi('1234567883')).toBe(false);
    expect(isValidNpi('1234576893')).toBe(false);
  });

  it('requires exactly ten ASCII digits', () => {
    for (const bad of ['', '123456789', '12345678930', '123456789a', ' 1234567893', '1234567893\n', '１２３４５６７８９３']) {
      expect(isValidNpi(bad)).toBe(false);
    }
  });

  it('accepts the NPIs used by the local sample file', () => {
    for (const npi of ['1987654328', '1555555550', '1765432103']) expect(isValidNpi(npi)).toBe(true);
  });
});
