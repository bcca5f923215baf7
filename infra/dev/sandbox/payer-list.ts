import { NETWORK_PAYERS } from './payer-network.js';
import type { Coverage, SandboxPayerRow } from './payer-row.js';
import { HMO, PPO, SANDBOX_PAYER_1 } from './patient-rows.js';

/**
 * The sandbox clearinghouse's payer directory (docs/api.md#payer-directory): real US payers with
 * their public payer ids, so `npm start` searches work offline. Nothing here is invented.
 *
 * - Rows marked `network` were read from Stedi's public Payer Network pages (name, primary payer
 *   id, Stedi payer id, aliases, coverage types and the eligibility / COB flags as shown there).
 * - The other rows carry payer ids that payers and clearinghouses publish (Medicare Administrative
 *   Contractor numbers, carriers' electronic payer ids). Their transaction flags follow one rule per
 *   kind of payer, stated in SANDBOX_FLAGS, not a reading of Stedi's network: the sandbox needs
 *   flags to exercise the PAYER_NOT_SUPPORTED gate, and the real directory is always Stedi's.
 * - `stediId` is given only where it was read; the sandbox omits it otherwise.
 * - The sandbox clearinghouse's own test payers (SBXPPO, SBXHMO, SANDBOX-PAYER-1) come last, under the
 *   ids and names its answers give (./patient-rows.ts), so a search finds the payer a sandbox check
 *   answers for (docs/api.md#sandboxes). They are the only rows that are not real payers.
 */

export type { Coverage, SandboxPayerRow, Support } from './payer-row.js';

const S = 'SUPPORTED';
const N = 'NOT_SUPPORTED';
const M: Coverage[] = ['medical'];
const D: Coverage[] = ['dental'];
const MD: Coverage[] = ['medical', 'dental'];

/** The rule per kind for rows not read from the network (see the header). */
export const SANDBOX_FLAGS = {
  commercial: { eligibility: S, cob: S },
  medicaid: { eligibility: S, cob: N },
  dental: { eligibility: S, cob: N },
  /** Medicare eligibility goes to CMS (payer id CMS); MAC contractor ids are for claims. */
  medicareContractor: { eligibility: N, cob: N },
} as const;

const commercial = (name: string, payerId: string, coverage: Coverage[] = M, states?: string[]): SandboxPayerRow => ({
  name,
  payerId,
  coverage,
  ...(states ? { states } : {}),
  ...SANDBOX_FLAGS.commercial,
});
const medicaid = (name: string, payerId: string, state: string): SandboxPayerRow => ({
  name,
  payerId,
  coverage: M,
  states: [state],
  ...SANDBOX_FLAGS.medicaid,
});
const dental = (name: string, payerId: string, states?: string[]): SandboxPayerRow => ({
  name,
  payerId,
  coverage: D,
  ...(states ? { states } : {}),
  ...SANDBOX_FLAGS.dental,
});
/** A Medicare Part B contractor: `Medicare Part B - <state> (<MAC>, <jurisdiction>)`. */
const mac = (state: string, code: string, contractor: string, payerId: string): SandboxPayerRow => ({
  name: `Medicare Part B - ${state} (${contractor}, ${code})`,
  payerId,
  coverage: M,
  states: [state === 'District of Columbia' ? 'DC' : (STATE_CODES[state] ?? state)],
  ...SANDBOX_FLAGS.medicareContractor,
});

const STATE_CODES: Record<string, string> = {
  'Northern California': 'CA',
  'Southern California': 'CA',
  Hawaii: 'HI',
  Nevada: 'NV',
  Alaska: 'AK',
  Idaho: 'ID',
  Oregon: 'OR',
  Washington: 'WA',
  Arizona: 'AZ',
  Montana: 'MT',
  'North Dakota': 'ND',
  'South Dakota': 'SD',
  Utah: 'UT',
  Wyoming: 'WY',
  Delaware: 'DE',
  Maryland: 'MD',
  'New Jersey': 'NJ',
  Pennsylvania: 'PA',
  Colorado: 'CO',
  'New Mexico': 'NM',
  Oklahoma: 'OK',
  Texas: 'TX',
  Arkansas: 'AR',
  Louisiana: 'LA',
  Mississippi: 'MS',
  Kentucky: 'KY',
  Ohio: 'OH',
  Iowa: 'IA',
  Kansas: 'KS',
  Missouri: 'MO',
  Nebraska: 'NE',
  Indiana: 'IN',
  Michigan: 'MI',
  Illinois: 'IL',
  Minnesota: 'MN',
  Wisconsin: 'WI',
  Alabama: 'AL',
  Georgia: 'GA',
  Tennessee: 'TN',
  'South Carolina': 'SC',
  Virginia: 'VA',
  'West Virginia': 'WV',
  'North Carolina': 'NC',
  Florida: 'FL',
  'Puerto Rico': 'PR',
  'Virgin Islands': 'VI',
};

export const SANDBOX_PAYERS: readonly SandboxPayerRow[] = [
  // ---- read from Stedi's Payer Network (./payer-network.ts)
  ...NETWORK_PAYERS,
  // ---- Blue Cross Blue Shield plans
  commercial('Blue Cross and Blue Shield of Illinois', '00621', MD, ['IL']),
  commercial('Blue Cross and Blue Shield of Oklahoma', '00840', MD, ['OK']),
  commercial('Blue Cross and Blue Shield of New Mexico', '00790', MD, ['NM']),
  commercial('Blue Cross and Blue Shield of Montana', '00751', MD, ['MT']),
  commercial('Florida Blue', '00590', MD, ['FL']),
  commercial('Blue Cross and Blue Shield of Alabama', '00510', MD, ['AL']),
  commercial('BlueCross BlueShield of Tennessee', '00390', MD, ['TN']),
  commercial('BlueCross BlueShield of South Carolina', '00401', MD, ['SC']),
  commercial('Blue Cross Blue Shield of Arizona', '53589', MD, ['AZ']),
  commercial('Blue Cross and Blue Shield of Kansas', '47163', MD, ['KS']),
  commercial('Blue Cross and Blue Shield of Kansas City', '47171', MD, ['MO', 'KS']),
  commercial('Wellmark Blue Cross and Blue Shield', '88848', MD, ['IA', 'SD']),
  commercial('Premera Blue Cross', '47570', MD, ['WA', 'AK']),
  commercial('Highmark Blue Cross Blue Shield', '54771', MD, ['PA']),
  commercial('Independence Blue Cross', '54704', M, ['PA']),
  commercial('Horizon Blue Cross Blue Shield of New Jersey', '22099', MD, ['NJ']),
  commercial('Blue Shield of California', '94036', MD, ['CA']),
  commercial('Anthem Blue Cross (California)', '47198', MD, ['CA']),
  commercial('Arkansas Blue Cross and Blue Shield', '00520', MD, ['AR']),
  commercial('Blue Cross and Blue Shield of Louisiana', '53120', MD, ['LA']),
  commercial('Empire BlueCross BlueShield', '00803', MD, ['NY']),
  commercial('Regence BlueCross BlueShield of Oregon', '00851', MD, ['OR']),
  commercial('Regence BlueShield of Idaho', '00611', MD, ['ID']),
  commercial('Regence BlueCross BlueShield of Utah', '00910', MD, ['UT']),
  commercial('Regence BlueShield (Washington)', '00932', MD, ['WA']),

  // ---- national and regional health plans
  commercial('WellCare Health Plans', '14163'),
  commercial('Health Net', '95567', M, ['CA']),
  commercial('Kaiser Permanente Northern California', '94135', M, ['CA']),
  commercial('Kaiser Permanente Southern California', '94134', M, ['CA']),
  commercial('Kaiser Permanente Mid-Atlantic States', '52095', M, ['MD', 'VA', 'DC']),
  commercial('Kaiser Permanente Georgia', '21313', M, ['GA']),
  commercial('Kaiser Permanente Northwest', '93079', M, ['OR', 'WA']),
  commercial('TRICARE For Life', '57106'),
  commercial('Oxford Health Plans', '06111', M, ['NY', 'NJ', 'CT']),
  commercial('UMR', '39026'),
  commercial('GEHA', '44054'),
  commercial('Meritain Health', '41124'),
  commercial('Allied Benefit Systems', '37308'),
  commercial('Golden Rule Insurance Company', '37602'),
  commercial('Harvard Pilgrim Health Care', '04271', M, ['MA', 'NH', 'ME', 'CT']),
  commercial('Tufts Health Plan', '04245', M, ['MA']),
  commercial('ConnectiCare', '06105', M, ['CT']),
  commercial('EmblemHealth (HIP)', '55247', M, ['NY']),
  commercial('EmblemHealth (GHI)', '80705', M, ['NY']),
  commercial('Fidelis Care', '11315', M, ['NY']),
  commercial('Healthfirst', '80141', M, ['NY']),
  commercial('MetroPlus Health Plan', '13265', M, ['NY']),
  commercial('Priority Health', '38217', M, ['MI']),
  commercial('Medica', '94265', M, ['MN']),
  commercial('HealthPartners', '94267', M, ['MN']),
  commercial('UCare', '52629', M, ['MN']),
  commercial('Dean Health Plan', '39113', M, ['WI']),
  commercial('Security Health Plan of Wisconsin', '39045', M, ['WI']),
  commercial('Geisinger Health Plan', '75273', M, ['PA']),
  commercial('UPMC Health Plan', '23281', M, ['PA']),
  commercial('SelectHealth', 'SX107', M, ['UT', 'ID']),
  commercial('PacificSource Health Plans', '93029', M, ['OR', 'ID', 'MT']),
  commercial('Sentara Health Plans', '54154', M, ['VA']),
  commercial('Cigna-HealthSpring', '63092'),
  commercial('SCAN Health Plan', 'SCAN1', M, ['CA']),
  commercial('CareSource', '31114', M, ['OH']),
  commercial('Medical Mutual of Ohio', '29076', M, ['OH']),
  commercial('AvMed', '59274', M, ['FL']),
  commercial('Molina Healthcare of California', '38333', M, ['CA']),
  commercial('Molina Healthcare of Michigan', '38334', M, ['MI']),
  commercial('Molina Healthcare of Washington', '38336', M, ['WA']),
  commercial('Molina Healthcare of Utah', 'SX109', M, ['UT']),
  commercial('Molina Healthcare of New Mexico', '09824', M, ['NM']),
  commercial('Molina Healthcare of Ohio', '20149', M, ['OH']),
  commercial('Molina Healthcare of Texas', '20554', M, ['TX']),
  commercial('Molina Healthcare of Florida', '51062', M, ['FL']),
  commercial('Molina Healthcare of Illinois', '20934', M, ['IL']),
  commercial('Molina Healthcare of Wisconsin', 'ABRI1', M, ['WI']),
  commercial('Molina Healthcare of South Carolina', '46299', M, ['SC']),

  // ---- Medicaid programs (fee for service)
  medicaid('Medi-Cal (California Medicaid)', '610442', 'CA'),
  medicaid('Texas Medicaid & Healthcare Partnership (TMHP)', '617591', 'TX'),

  // ---- dental carriers
  dental('Ameritas', '47009'),
  dental('Guardian', '64246'),
  dental('MetLife Dental', '65978'),
  dental('Principal Financial Group (Dental)', '61271'),
  dental('United Concordia', '89070'),
  dental('Humana Dental', '73288'),
  dental('DentaQuest', 'CX014'),
  dental('LIBERTY Dental Plan', 'CX083'),
  dental('Delta Dental of Washington', '91062', ['WA']),
  dental('Delta Dental of Illinois', '47598', ['IL']),
  dental('Delta Dental of Pennsylvania', '23166', ['PA']),
  dental('Delta Dental of Colorado', '84056', ['CO']),
  dental('Delta Dental of Wisconsin', '39069', ['WI']),
  dental('Delta Dental of Arizona', '86027', ['AZ']),
  dental('Delta Dental of Minnesota', '07000', ['MN']),
  dental('Delta Dental of Massachusetts', '04614', ['MA']),
  dental('Delta Dental of Missouri', '43090', ['MO']),
  dental('Delta Dental of Virginia', '54084', ['VA']),
  dental('Delta Dental of Tennessee', '62180', ['TN']),

  // ---- Medicare Part B contractors (CMS contractor numbers)
  mac('Northern California', 'JE', 'Noridian', '01112'),
  mac('Southern California', 'JE', 'Noridian', '01182'),
  mac('Hawaii', 'JE', 'Noridian', '01212'),
  mac('Nevada', 'JE', 'Noridian', '01312'),
  mac('Alaska', 'JF', 'Noridian', '02102'),
  mac('Idaho', 'JF', 'Noridian', '02202'),
  mac('Oregon', 'JF', 'Noridian', '02302'),
  mac('Washington', 'JF', 'Noridian', '02402'),
  mac('Arizona', 'JF', 'Noridian', '03102'),
  mac('Montana', 'JF', 'Noridian', '03202'),
  mac('North Dakota', 'JF', 'Noridian', '03302'),
  mac('South Dakota', 'JF', 'Noridian', '03402'),
  mac('Utah', 'JF', 'Noridian', '03502'),
  mac('Wyoming', 'JF', 'Noridian', '03602'),
  mac('Delaware', 'JL', 'Novitas Solutions', '12102'),
  mac('District of Columbia', 'JL', 'Novitas Solutions', '12202'),
  mac('Maryland', 'JL', 'Novitas Solutions', '12302'),
  mac('New Jersey', 'JL', 'Novitas Solutions', '12402'),
  mac('Pennsylvania', 'JL', 'Novitas Solutions', '12502'),
  mac('Colorado', 'JH', 'Novitas Solutions', '04112'),
  mac('New Mexico', 'JH', 'Novitas Solutions', '04212'),
  mac('Oklahoma', 'JH', 'Novitas Solutions', '04312'),
  mac('Texas', 'JH', 'Novitas Solutions', '04412'),
  mac('Arkansas', 'JH', 'Novitas Solutions', '07102'),
  mac('Louisiana', 'JH', 'Novitas Solutions', '07202'),
  mac('Mississippi', 'JH', 'Novitas Solutions', '07302'),
  mac('Kentucky', 'J15', 'CGS Administrators', '15102'),
  mac('Ohio', 'J15', 'CGS Administrators', '15202'),
  mac('Iowa', 'J5', 'WPS', '05102'),
  mac('Kansas', 'J5', 'WPS', '05202'),
  mac('Missouri', 'J5', 'WPS', '05302'),
  mac('Nebraska', 'J5', 'WPS', '05402'),
  mac('Indiana', 'J8', 'WPS', '08102'),
  mac('Michigan', 'J8', 'WPS', '08202'),
  mac('Illinois', 'J6', 'National Government Services', '06102'),
  mac('Minnesota', 'J6', 'National Government Services', '06202'),
  mac('Wisconsin', 'J6', 'National Government Services', '06302'),
  mac('Alabama', 'JJ', 'Palmetto GBA', '10112'),
  mac('Georgia', 'JJ', 'Palmetto GBA', '10212'),
  mac('Tennessee', 'JJ', 'Palmetto GBA', '10312'),
  mac('South Carolina', 'JM', 'Palmetto GBA', '11202'),
  mac('Virginia', 'JM', 'Palmetto GBA', '11302'),
  mac('West Virginia', 'JM', 'Palmetto GBA', '11402'),
  mac('North Carolina', 'JM', 'Palmetto GBA', '11502'),
  mac('Florida', 'JN', 'First Coast Service Options', '09102'),
  mac('Puerto Rico', 'JN', 'First Coast Service Options', '09202'),
  mac('Virgin Islands', 'JN', 'First Coast Service Options', '09302'),
  // ---- the sandbox clearinghouse's test payers (see the header)
  ...[PPO, HMO, SANDBOX_PAYER_1].map(({ payerId, payerName }) => commercial(payerName, payerId)),
];
