/**
 * The whole eligibility answer from one 271 transaction's patient loop (docs/eligibility.md): the
 * plan-wide blocks, coverage status, plan and people, per-service and per-procedure benefits,
 * other payers and notices.
 */
import { procedureBenefits, serviceBenefits } from './benefits.js';
import { selectRows } from './candidates.js';
import { estimateFactsOf } from './estimate-facts.js';
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

  const services = question.serviceTypeCodes ?? DEFAULT_SERVICES;
  const procedures = question.procedureCodes;
  const otherPayers = otherPayersOf(rows, question.dateOfCoverage);
  return {
    inNetwork,
    outNetwork,
    coverageStatus: coverageStatusOf(rows),
    ...(doc.payerName !== '' ? { payerName: doc.payerName } : {}),
    plan: planOf(selection.candidates, rows, doc.dependent ? [doc.dependent, doc.subscriber] : [doc.subscriber]),
    subscriber: subscriberOf(doc.subscriber),
    ...(doc.dependent ? { dependent: dependentOf(doc.dependent) } : {}),
    benefits: serviceBenefits(rows, selection, services),
    ...(procedures !== undefined ? { procedures: procedureBenefits(selection, procedures) } : {}),
    otherPayers,
    notices: noticesOf({
      rows,
      inNetwork,
      outNetwork,
      otherPayers,
      originalMedicare: selection.noFamily,
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
