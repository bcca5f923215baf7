/**
 * The whole eligibility answer from one 271 transaction's patient loop (docs/eligibility.md): the
 * plan-wide blocks, coverage status, plan and people, per-service and per-procedure benefits,
 * other payers and notices.
 */
import { procedureBenefits, serviceBenefits } from './benefits.js';
import { selectRows } from './candidates.js';
import { otherPayersOf, noticesOf } from './other-payers.js';
import { dependentOf, planOf, subscriberOf } from './plan.js';
import type { Patient271 } from './reply.js';
import { blocks, coverageStatusOf, rowsByField } from './summary.js';
import type { SummaryFigures } from './figures.js';
import type { EligibilityQuestion } from './types.js';

const DEFAULT_SERVICES: readonly string[] = ['30'];

/** The answer with its figures as numbers (present.ts makes the REST answer of it). */
export function answerOf(doc: Patient271, question: EligibilityQuestion = {}): SummaryFigures {
  const rows = doc.patientBenefits;
  const selection = selectRows(rows, question.dateOfCoverage);
  const { inNetwork, outNetwork } = blocks(rowsByField(selection.candidates), { rankService: true, noFamily: selection.noFamily });

  const summary = { inNetwork, outNetwork, coverageStatus: coverageStatusOf(rows) } as SummaryFigures;
  if (doc.payerName !== '') summary.payerName = doc.payerName;
  summary.plan = planOf(selection.candidates, rows, doc.dependent ? [doc.dependent, doc.subscriber] : [doc.subscriber]);
  summary.subscriber = subscriberOf(doc.subscriber);
  if (doc.dependent) summary.dependent = dependentOf(doc.dependent);
  const services = question.serviceTypeCodes ?? DEFAULT_SERVICES;
  summary.benefits = serviceBenefits(rows, selection, services);
  const procedures = question.procedureCodes;
  if (procedures !== undefined) summary.procedures = procedureBenefits(selection, procedures);
  summary.otherPayers = otherPayersOf(rows, question.dateOfCoverage);
  summary.notices = noticesOf({
    rows,
    inNetwork,
    outNetwork,
    otherPayers: summary.otherPayers,
    originalMedicare: selection.noFamily,
    explicitServices: question.serviceTypeCodes ?? [],
    procedures: procedures ?? [],
  });
  return summary;
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
