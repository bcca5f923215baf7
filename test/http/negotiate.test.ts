import { describe, expect, it } from '@jest/globals';
import { preferredType } from '../../lib/http/negotiate.js';

/** Accept negotiation for the eligibility route's PDF (docs/api.md#printable-summary): JSON first, q weights, 406 as undefined. */

const OFFERED = ['application/json', 'application/pdf'] as const;

describe('preferredType', () => {
  it.each([
    [undefined, 'application/json'],
    ['', 'application/json'],
    ['*/*', 'application/json'],
    ['application/*', 'application/json'],
    ['application/json', 'application/json'],
    ['application/pdf', 'application/pdf'],
    ['APPLICATION/PDF', 'application/pdf'],
    ['application/pdf, application/json', 'application/json'],
    ['application/pdf, application/json;q=0.9', 'application/pdf'],
    ['application/json;q=0.2, application/pdf;q=0.8', 'application/pdf'],
    ['application/pdf;q=0.5, */*;q=0.1', 'application/pdf'],
    ['*/*, application/json;q=0', 'application/pdf'],
    ['text/html, application/pdf ; q = 0.4', 'application/pdf'],
    ['not a media range', 'application/json'],
  ])('Accept %p → %p', (accept, expected) => {
    expect(preferredType(accept, OFFERED)).toBe(expected);
  });

  it.each(['text/html', 'text/*, image/png', 'application/json;q=0, application/pdf;q=0', 'application/xml'])(
    'Accept %p allows neither: undefined (406)',
    (accept) => {
      expect(preferredType(accept, OFFERED)).toBeUndefined();
    },
  );
});
