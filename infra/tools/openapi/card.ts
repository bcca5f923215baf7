import { SAMPLE_CARDS } from '../../dev/sandbox/cards/samples.js';

/**
 * The insurance card operation of the OpenAPI document (document.ts): its summary and its examples,
 * the answer taken from the sandbox's Medicare sample card (infra/dev/sandbox/cards/samples.ts).
 */

type Json = Record<string, unknown>;

export const CARD_SUMMARY = {
  operationId: 'readInsuranceCard',
  tag: 'Finding coverage',
  summary: 'Read an insurance card',
  description:
    "Reads a photo of an insurance card (front, optionally back: base64 JPEG, PNG or WebP, each ≤ 2 MiB decoded and ≤ 8,000 px a side; downscale photos to about 1,600 px on the long edge) with the AI model the letters use, and answers only what the card shows, a confidence per field and the payer directory's best matches for the card's payer name. The images are never stored. Always carries the notice CONFIRM_CARD_FIELDS: compare the member id with the card. An image that is not a card is 422 CARD_NOT_READ. With `check`, also runs the eligibility check with the card's member id and the best payer match (`eligibility`). See docs/finding-coverage.md.",
};

/** A base64 image too long for an example: its first bytes stand in (a PNG signature). */
const IMAGE = 'iVBORw0KGgoAAAANSUhEUgAAA+gAAAJ2CAIAAAC8hAeIAAAAAXNSR0IArs4c6QAA…';

const medicare = SAMPLE_CARDS.find((card) => card.name === 'medicare')!.sides[0]!.fields as Record<string, string>;

export const CARD_REQUEST_EXAMPLES: Json = {
  front: { summary: 'A card photo (the base64 is shortened here)', value: { front: IMAGE } },
  check: {
    summary: 'The sandbox Medicare sample card, with an eligibility check for its patient',
    value: { front: IMAGE, check: { patientDOB: '11-02-1950', dateOfCoverage: '03-01-2025', providerId: 'PROVIDER-SANDBOX-1' } },
  },
};

export const CARD_ANSWER_EXAMPLES: Json = {
  medicare: {
    summary: "The sandbox's Medicare sample card",
    value: {
      card: {
        payerName: medicare.payerName,
        memberId: medicare.memberId,
        planName: medicare.planName,
        planType: medicare.planType,
        subscriberName: medicare.subscriberName,
      },
      confidence: { payerName: 'high', memberId: 'high', planName: 'high', planType: 'high', subscriberName: 'high' },
      payerMatches: [{ payerId: 'CMS', name: 'National Centers for Medicare & Medicaid Services', score: 0.29 }],
      notices: [
        {
          code: 'CONFIRM_CARD_FIELDS',
          message: 'These fields were read from a photo by an AI model: compare the member id and the other fields with the card before using them.',
        },
      ],
    },
  },
};
