/**
 * The whole eligibility answer from one 271 transaction's patient loop (docs/eligibility.md): the
 * plan-wide blocks, coverage status, plan and people, per-service and per-procedure benefits,
 * other payers and notices.
 */
import { procedureBenefits, serviceBenefits } from './benefits.js';
import { selectRows } from './candidates.js';
import { estimateFactsOf } from './estimate-facts.js';
import { frequenciesNotMet } from './limitations.js';
import { noticesOf } from './notices.js';
import { otherPayersOf } from './other-payers.js';
import { dateOfDeathOf, dependentOf, planOf, subscriberOf } from './plan.js';
import { d8ToIso } from './dates.js';
import type { Patient271 } from './reply.js';
import { blocks, coverageStatusOf, rowsByField } from './summary.js';
import type { SummaryFigures } from './figures.js';
import type { CoverageStatus, EligibilityQuestion } from './types.js';

const DEFAULT_SERVICES: readonly string[] = ['30'];

/**
 * The coverage status (docs/eligibility.md#coverage-status): Inactive when the date of service is
 * after the patient's date of death (docs/eligibility.md#date-of-death).
 */
function statusOn(rows: Patient271['patientBenefits'], died: string | undefined, date: string | undefined): CoverageStatus {
  const dateIso = date === undefined ? undefined : d8ToIso(date);
  return died !== undefined && dateIso !== undefined && dateIso > died ? 'Inactive' : coverageStatusOf(rows);
}

/** The answer with its figures as numbers (present.ts makes the REST answer of it). */
export function answerOf(doc: Patient271, question: EligibilityQuestion = {}): SummaryFigures {
  const rows = doc.patientBenefits;
  const selection = selectRows(rows, question.dateOfCoverage);
  const { candidates, noFamily, planCode } = selection;
  const { inNetwork, outNetwork } = blocks(rowsByField(candidates), { rankService: true, noFamily, planCode });

  const services = question.serviceTypeCodes ?? DEFAULT_SERVICES;
  const procedures = question.procedureCodes;
  const otherPayers = otherPayersOf(rows, question.dateOfCoverage);
  const died = dateOfDeathOf(doc.dependent ?? doc.subscriber);
  const benefits = serviceBenefits(rows, selection, services);
  return {
    inNetwork,
    outNetwork,
    coverageStatus: statusOn(rows, died, question.dateOfCoverage),
    ...(doc.payerName !== '' ? { payerName: doc.payerName } : {}),
    plan: planOf(candidates, rows, doc.dependent ? [doc.dependent, doc.subscriber] : [doc.subscriber], planCode),
    subscriber: subscriberOf(doc.subscriber),
    ...(doc.dependent ? { dependent: dependentOf(doc.dependent) } : {}),
    benefits,
    ...(procedures !== undefined ? { procedures: procedureBenefits(selection, procedures) } : {}),
    otherPayers,
    notices: noticesOf({
      rows,
      candidates,
      inNetwork,
      outNetwork,
      otherPayers,
      benefits,
      originalMedicare: noFamily,
      planCode,
      deceased: died !== undefined,
      frequencies: frequenciesNotMet(candidates, question.dateOfCoverage),
      services,
      explicitServices: question.serviceTypeCodes ?? [],
      procedures: procedures ?? [],
    }),
    estimateFacts: estimateFactsOf(rows, selection),
  };
}

const sameId = (a: string, b: string): boolean => a.trim().toUpperCase() === b.trim().toUpperCase();

/** The transaction that answers: the first whose 2100C NM109 is the request's member id, else the first. */
export function answeringTransaction(docs: readonly Patient271[], memberId: string | undefined): number {
  if (memberId !== undefined && memberId.trim() !== '') {
    for (let i = 0; i < docs.length; i++) {
      const id = docs[i]!.subscriber?.id;
      if (id !== undefined && sameId(id, memberId)) return i;
    }
  }
  return 0;
}
