/**
 * The `notices` a front desk reads (docs/eligibility.md#notices): one `{code, message}` each, a
 * sentence with no patient data (payer and provider names are not patient data). The order: what
 * stops the visit (a date of death, a dental- or vision-only plan), who pays, what the figures
 * lack, then what the payer says about services and providers.
 */
import { serviceTypeName } from '../x12/service-type-codes.js';
import { answersFor, lists, type BenefitRow } from './benefit-row.js';
import { NOT_KNOWN, type Block, type ServiceFigures } from './figures.js';
import type { FrequencyNotMet } from './limitations.js';
import { isOtherPayer } from './other-payers.js';
import type { PlanCode } from './summary.js';
import type { Notice, OtherPayer } from './types.js';

/*
 * Other payers (docs/eligibility.md#other-payers, #medicare-advantage, #drug-only-other-plans).
 */

function otherPayerNotice(payers: readonly OtherPayer[]): Notice {
  let named = '';
  for (let i = 0; i < payers.length; i++) {
    const payer = payers[i]!;
    if (i > 0) named += '; ';
    named += payer.name ?? 'a payer not named';
    if (payer.insuranceType) named += `, ${payer.insuranceType.name}`;
  }
  return { code: 'OTHER_PAYER', message: `The payer reports other coverage (${named}); check which plan pays first.` };
}

/** EB04 HN: HMO Medicare risk. A Medicare Advantage contract number: H, R or E and four digits. */
const MEDICARE_RISK = 'HN';
const ADVANTAGE_CONTRACT = /^[HRE]\d{4}/;
const isAdvantage = (row: BenefitRow): boolean => row.insuranceType === MEDICARE_RISK || ADVANTAGE_CONTRACT.test(row.planRef.trim());

/** A drug-only plan: an R row listing only 88 (pharmacy), or a stand-alone Part D contract (S and four digits). */
const PHARMACY = '88';
const PART_D_CONTRACT = /^S\d{4}/;
const isDrugOnly = (row: BenefitRow): boolean =>
  (row.services.length > 0 && row.services.every((code) => code === PHARMACY)) || PART_D_CONTRACT.test(row.planRef.trim());

/** One notice for every active Advantage row: the first name given, the earliest begin date (docs/eligibility.md#medicare-advantage). */
function advantageNotice(payers: readonly OtherPayer[]): Notice {
  const name = payers.find((payer) => payer.name !== undefined)?.name;
  let since: string | undefined;
  for (const payer of payers) if (payer.coverageBegin !== undefined && (since === undefined || payer.coverageBegin < since)) since = payer.coverageBegin;
  const detail = [name, since === undefined ? undefined : `since ${since}`].filter((part) => part !== undefined).join(' ');
  return {
    code: 'MEDICARE_ADVANTAGE',
    message: `The patient is enrolled in a Medicare Advantage plan${detail === '' ? '' : ` (${detail})`}: bill that plan; the Original Medicare figures may not apply.`,
  };
}

/** The notices about other payers: active ones only; on Original Medicare, Advantage plans get their own notice; drug-only plans none. */
function otherPayerNotices(rows: readonly BenefitRow[], payers: readonly OtherPayer[], originalMedicare: boolean): Notice[] {
  const payerRows = rows.filter(isOtherPayer);
  const advantage: OtherPayer[] = [];
  const others: OtherPayer[] = [];
  payers.forEach((payer, i) => {
    const row = payerRows[i]!;
    if (!payer.activeOnDate) return;
    if (originalMedicare && isAdvantage(row)) advantage.push(payer);
    else if (!isDrugOnly(row)) others.push(payer);
  });
  const notices: Notice[] = [];
  if (advantage.length > 0) notices.push(advantageNotice(advantage));
  if (others.length > 0) notices.push(otherPayerNotice(others));
  return notices;
}

/*
 * What the figures lack (docs/eligibility.md#notices).
 */

/** Whether an individual deductible or out-of-pocket figure is not known while the family one is. */
function familyOnly(block: Block): boolean {
  const { individual: own, family } = block;
  const only = (mine: unknown, theirs: unknown): boolean => mine === NOT_KNOWN && theirs !== NOT_KNOWN;
  return (
    only(own.deductible.total, family.deductible.total) ||
    only(own.deductible.remaining, family.deductible.remaining) ||
    only(own.stopLoss, family.stopLoss) ||
    only(own.stopLossRemaining, family.stopLossRemaining)
  );
}

function familyOnlyNotice(inNetwork: Block, outNetwork: Block): Notice | undefined {
  const where = [familyOnly(inNetwork) ? 'in network' : '', familyOnly(outNetwork) ? 'out of network' : ''].filter(Boolean);
  if (where.length === 0) return undefined;
  return {
    code: 'FAMILY_LEVEL_ONLY',
    message: `The plan reports the deductible or out-of-pocket maximum only for the family (${where.join(', ')}); the family figures are the ones that apply to this patient.`,
  };
}

/** "service type 98 (Professional (Physician) Visit - Office)", or the bare code when it has no name. */
function serviceWords(code: string): string {
  const name = serviceTypeName(code);
  return name ? `service type ${code} (${name})` : `service type ${code}`;
}

const itOrThem = (count: number): string => (count === 1 ? 'it' : 'them');

/**
 * Requested service types and procedures no patient row lists (a 98 answered by BY or BZ rows is not
 * missing), in one notice: the service types' sentence first (their entries show plan figures where
 * the plan has them), then the procedures'.
 */
function notReturnedNotice(input: NoticeInput): Notice | undefined {
  const answeredElsewhere = new Set(input.benefits.filter((entry) => entry.fromService !== undefined).map((entry) => entry.serviceType.code));
  const services = input.explicitServices.filter((code) => !answeredElsewhere.has(code) && !input.rows.some((row) => answersFor(row, code))).map(serviceWords);
  const procedures = input.procedures
    .filter((code) => !input.rows.some((row) => row.hasProcedure && row.procedure === code))
    .map((code) => `procedure ${code}`);
  const sentences: string[] = [];
  if (services.length > 0) {
    sentences.push(
      `The payer returned nothing specific for ${services.join(', ')}; their entries show the plan's general figures where it has them (fromPlan) and N/A elsewhere; confirm service-specific cost shares with the payer.`,
    );
  }
  if (procedures.length > 0) {
    sentences.push(`The payer returned nothing for ${procedures.join(', ')}; figures for ${itOrThem(procedures.length)} are N/A, so ask the payer directly.`);
  }
  return sentences.length === 0 ? undefined : { code: 'SERVICE_NOT_RETURNED', message: sentences.join(' ') };
}

/*
 * What the payer says about the patient, the plan, services and providers.
 */

const PLAN_SCOPE_WORDS: Readonly<Record<Exclude<PlanCode, '30'>, string>> = { '35': 'dental-only', AL: 'vision-only' };

function planScopeNotice(planCode: PlanCode): Notice | undefined {
  if (planCode === '30') return undefined;
  return { code: 'PLAN_SCOPE', message: `The payer answered for a ${PLAN_SCOPE_WORDS[planCode]} plan; medical services are not covered by it.` };
}

const namesOf = (codes: readonly string[]): string => codes.map((code) => serviceTypeName(code) ?? `service type ${code}`).join(', ');

/** One notice per frequency limit not met yet (docs/eligibility.md#limitations-need-a-limit). */
function frequencyNotices(frequencies: readonly FrequencyNotMet[]): Notice[] {
  return frequencies.map((frequency) => ({
    code: 'FREQUENCY_NOT_MET',
    message: `The payer's frequency limit for ${namesOf(frequency.services)} is not met yet: last on ${frequency.lastVisit}, allowed once per ${frequency.period}.`,
  }));
}

/** EB01 U: contact the entity (or the payer) for benefit information. */
const CONTACT = 'U';

/** Requested service types whose only rows are EB01 U, grouped by the entity to contact (docs/eligibility.md#contact-the-payer-rows). */
function contactNotice(rows: readonly BenefitRow[], requested: readonly string[]): Notice | undefined {
  const byEntity = new Map<string, string[]>();
  for (const code of requested) {
    const listing = rows.filter((row) => lists(row, code));
    if (listing.length === 0 || !listing.every((row) => row.info === CONTACT)) continue;
    const named = listing.map((row) => row.related?.name ?? '').find((name) => name !== '');
    const entity = named ?? 'the payer';
    byEntity.set(entity, [...(byEntity.get(entity) ?? []), code]);
  }
  if (byEntity.size === 0) return undefined;
  const sentences = [...byEntity].map(
    ([entity, codes]) => `For ${codes.map(serviceWords).join(', ')} the payer says to contact ${entity} for benefit details.`,
  );
  return { code: 'CONTACT_PAYER', message: sentences.join(' ') };
}

/** EB01 L: primary care provider; N: services restricted to the following provider (docs/eligibility.md#hmo-rows). */
const PRIMARY_CARE = 'L';
const RESTRICTED = 'N';

const distinct = <T>(values: readonly T[]): T[] => [...new Set(values)];

function providerNotices(candidates: readonly BenefitRow[]): Notice[] {
  const notices: Notice[] = [];
  const primary = distinct(
    candidates
      .filter((row) => row.info === PRIMARY_CARE && row.related !== undefined && row.related.name !== '')
      .map((row) => (row.related!.npi === '' ? row.related!.name : `${row.related!.name}, NPI ${row.related!.npi}`)),
  );
  if (primary.length > 0) {
    notices.push({ code: 'PCP_ON_FILE', message: `The payer has a primary care provider on file: ${primary.join('; ')}; referrals may be needed.` });
  }
  const restricted = candidates.filter((row) => row.info === RESTRICTED);
  if (restricted.length > 0) {
    const names = distinct(restricted.map((row) => row.related?.name ?? '').filter((name) => name !== ''));
    notices.push({
      code: 'RESTRICTED_PROVIDER',
      message: `Services are restricted to ${names.length > 0 ? names.join('; ') : 'a provider the payer names'}.`,
    });
  }
  return notices;
}

export interface NoticeInput {
  rows: readonly BenefitRow[];
  /** The rows no drop rule removed (docs/eligibility.md#candidates). */
  candidates: readonly BenefitRow[];
  inNetwork: Block;
  outNetwork: Block;
  otherPayers: readonly OtherPayer[];
  benefits: readonly ServiceFigures[];
  /** The patient's own coverage is Original Medicare (docs/eligibility.md#original-medicare). */
  originalMedicare: boolean;
  /** 30, or 35 / AL for a dental- or vision-only plan. */
  planCode: PlanCode;
  /** Whether the payer reports a date of death for the patient. */
  deceased: boolean;
  frequencies: readonly FrequencyNotMet[];
  /** Every service type the request asks about (the default 30 included). */
  services: readonly string[];
  /** Service types the request named explicitly (not the default 30), and its procedure codes. */
  explicitServices: readonly string[];
  procedures: readonly string[];
}

export function noticesOf(input: NoticeInput): Notice[] {
  const notices: (Notice | undefined)[] = [
    input.deceased ? { code: 'PATIENT_DECEASED', message: 'The payer reports a date of death for the patient; check the date of service.' } : undefined,
    planScopeNotice(input.planCode),
    ...otherPayerNotices(input.rows, input.otherPayers, input.originalMedicare),
    familyOnlyNotice(input.inNetwork, input.outNetwork),
    notReturnedNotice(input),
    ...frequencyNotices(input.frequencies),
    contactNotice(input.rows, input.services),
    ...providerNotices(input.candidates),
  ];
  return notices.filter((notice): notice is Notice => notice !== undefined);
}
