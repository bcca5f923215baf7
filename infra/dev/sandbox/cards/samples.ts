/**
 * The project's sample insurance cards (docs/finding-coverage.md#sample-cards): what each image shows,
 * the one source of both the images (./make-cards.ts renders them) and the sandbox Messages API's
 * transcription of them (./transcribe.ts). Every payer name is one of the sandbox payer directory's
 * (../payer-list.ts, ../payer-network.ts), so a read card has payer matches offline. The people and
 * numbers are invented, but for the Medicare card, which carries the sandbox patient Harold Brooks
 * (../patients.ts), so the card's `check` runs offline against the sandbox clearinghouse.
 */

export type Confidence = 'high' | 'medium' | 'low';

/** What one image shows, as the model's tool would record it (the card route's tool input). */
export interface SampleSide {
  /** The file under infra/dev/sandbox/cards/ (PNG). */
  file: string;
  /** The fields this side shows, as printed. */
  fields: Record<string, string | string[] | Array<{ service: string; amount: string }>>;
  /** Lines of the card as drawn: a heading, then label and value rows. */
  look: { brand: string; colour: string; title: string; rows: Array<[string, string]>; footer?: string };
}

export interface SampleCard {
  name: string;
  kind: string;
  sides: SampleSide[];
}

export const SAMPLE_CARDS: readonly SampleCard[] = [
  {
    name: 'commercial-ppo',
    kind: 'Commercial PPO (Aetna), front and back',
    sides: [
      {
        file: 'commercial-ppo-front.png',
        fields: {
          payerName: 'Aetna',
          planName: 'Open Access Aetna Select',
          planType: 'PPO',
          subscriberName: 'JANE Q SAMPLE',
          memberId: 'W186512943',
          groupNumber: '0849201-010-00001',
          dependents: ['JOHN SAMPLE', 'EMMA SAMPLE'],
          copays: [
            { service: 'PCP', amount: '$25' },
            { service: 'Specialist', amount: '$50' },
            { service: 'Urgent Care', amount: '$75' },
            { service: 'ER', amount: '$250' },
          ],
        },
        look: {
          brand: 'aetna',
          colour: '#7d3f98',
          title: 'Open Access Aetna Select · PPO',
          rows: [
            ['Member', 'JANE Q SAMPLE'],
            ['Member ID', 'W186512943'],
            ['Group', '0849201-010-00001'],
            ['Dependents', 'JOHN SAMPLE · EMMA SAMPLE'],
            ['Copays', 'PCP $25 · Specialist $50 · Urgent Care $75 · ER $250'],
          ],
          footer: 'SAMPLE CARD · NOT VALID FOR SERVICES',
        },
      },
      {
        file: 'commercial-ppo-back.png',
        fields: {
          rxBin: '610502',
          rxPcn: 'ADV',
          rxGroup: 'RX8834',
          payerPhone: '1-800-555-0142',
          claimsAddress: 'Aetna, P.O. Box 981106, El Paso, TX 79998-1106',
        },
        look: {
          brand: 'aetna',
          colour: '#7d3f98',
          title: 'Pharmacy and provider information',
          rows: [
            ['Rx BIN', '610502'],
            ['Rx PCN', 'ADV'],
            ['Rx Group', 'RX8834'],
            ['Member Services', '1-800-555-0142'],
            ['Send claims to', 'Aetna, P.O. Box 981106, El Paso, TX 79998-1106'],
          ],
          footer: 'Providers: verify eligibility before every visit.',
        },
      },
    ],
  },
  {
    name: 'medicare',
    kind: 'Original Medicare (red, white and blue)',
    sides: [
      {
        file: 'medicare.png',
        fields: {
          payerName: 'Medicare',
          planName: 'Medicare Health Insurance',
          planType: 'Medicare Part A and Part B',
          subscriberName: 'HAROLD BROOKS',
          memberId: '1EG4TE5MK73',
        },
        look: {
          brand: 'MEDICARE HEALTH INSURANCE',
          colour: '#1f3f8f',
          title: 'Medicare',
          rows: [
            ['Name / Nombre', 'HAROLD BROOKS'],
            ['Medicare Number', '1EG4TE5MK73'],
            ['HOSPITAL (PART A)', 'Coverage starts 09-01-2015'],
            ['MEDICAL (PART B)', 'Coverage starts 09-01-2015'],
          ],
          footer: 'SAMPLE CARD · NOT VALID FOR SERVICES',
        },
      },
    ],
  },
  {
    name: 'medicaid-managed-care',
    kind: 'Medicaid managed care (Molina Healthcare of Texas, STAR)',
    sides: [
      {
        file: 'medicaid-managed-care.png',
        fields: {
          payerName: 'Molina Healthcare of Texas',
          planName: 'STAR Medicaid',
          planType: 'Medicaid managed care',
          subscriberName: 'CARLOS REYES',
          memberId: '712345678',
          rxBin: '004336',
          rxPcn: 'MCAIDADV',
          rxGroup: 'RX5496',
          payerPhone: '1-866-555-0107',
          copays: [{ service: 'Office visit', amount: '$0' }],
        },
        look: {
          brand: 'MOLINA HEALTHCARE',
          colour: '#0a7c86',
          title: 'Molina Healthcare of Texas · STAR Medicaid',
          rows: [
            ['Member', 'CARLOS REYES'],
            ['Member ID', '712345678'],
            ['Office visit copay', '$0'],
            ['Rx BIN / PCN / Group', '004336 / MCAIDADV / RX5496'],
            ['Member Services', '1-866-555-0107'],
          ],
          footer: 'SAMPLE CARD · NOT VALID FOR SERVICES',
        },
      },
    ],
  },
];

/** Every sample image, front and back alike. */
export const SAMPLE_SIDES: readonly SampleSide[] = SAMPLE_CARDS.flatMap((card) => card.sides);
