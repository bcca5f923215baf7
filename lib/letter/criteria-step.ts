import { ok, type Result } from '../errors/index.js';
import type { Message } from '../runtime/index.js';
import type { LetterRequest, RequestedService } from '../validation/index.js';
import {
  checkDenial,
  readCriteriaAnswer,
  type Citation,
  type CitationEvidence,
  type CriteriaDocuments,
  type Criterion,
  type Denial,
  type OtherDocuments,
} from './compose/index.js';
import { readProcedureNotes, searchNotes, textLayerOf, type NotesSearch, type ProcedureNotes } from './intake/index.js';
import { criteriaDroppedNotice, criteriaNotMetNotice, unverifiedServiceNotices } from './notices.js';
import type { Notice } from './types.js';

/**
 * The payer's documents of a letter (docs/letter.md#letter-types): the policy and the denial read
 * like the notes (same gate and limits, refusals naming their field), sent after the notes as cited
 * documents, and the model's criteria and denial sections checked against them. A letter with
 * neither and no letter type is the plain Letter of Medical Necessity, its request unchanged.
 */

export interface PayerDocuments {
  /** What goes to the model (undefined: the plain letter). */
  documents?: CriteriaDocuments;
  /** What each cited document index is checked against. */
  others: OtherDocuments;
  denialPages: string[] | null;
}

const evidenceOf = (file: ProcedureNotes): CitationEvidence => {
  const pages = textLayerOf(file.text).pages;
  return { pages, pageCount: file.pages, search: searchNotes(pages) };
};

/** Reads `policy_file_content` and `denial_file_content` (400/413 like a bad notes file). */
export async function readPayerDocuments(request: LetterRequest): Promise<Result<PayerDocuments>> {
  const policy = request.policy_file_content ? await readProcedureNotes(request.policy_file_content, { field: 'policy_file_content' }) : undefined;
  if (policy && !policy.ok) return policy;
  const denial = request.denial_file_content ? await readProcedureNotes(request.denial_file_content, { field: 'denial_file_content' }) : undefined;
  if (denial && !denial.ok) return denial;
  const letterType = request.letter_type ?? 'medical_necessity';
  if (!policy && !denial && !request.letter_type && !request.requested_services) return ok({ others: {}, denialPages: null });
  const others: OtherDocuments = {};
  let index = 1;
  if (policy) others.policy = { index: index++, evidence: evidenceOf(policy.value) };
  if (denial) others.denial = { index: index++, evidence: evidenceOf(denial.value) };
  return ok({
    documents: {
      letterType,
      ...(policy ? { policy: { base64: policy.value.base64, ...(request.policy_name ? { name: request.policy_name } : {}) } } : {}),
      ...(denial ? { denial: { base64: denial.value.base64 } } : {}),
      ...(request.requested_services ? { services: request.requested_services } : {}),
    },
    others,
    denialPages: denial ? (others.denial!.evidence.pages ?? null) : null,
  });
}

export interface CriteriaOutcome {
  /** The answer without its sections: what the body is read from. */
  body: Message;
  criteria?: Criterion[];
  missingEvidence?: string[];
  denial?: Denial;
  services?: RequestedService[];
  notFound: number;
  notices: Notice[];
}

/** The criteria, denial and requested services of an answer, each checked; the plain letter passes through. */
export function checkCriteria(message: Message, payer: PayerDocuments, notes: CitationEvidence & { search: NotesSearch }): CriteriaOutcome {
  if (!payer.documents) return { body: message, notFound: 0, notices: [] };
  const { policy, denial, services } = payer.documents;
  const read = readCriteriaAnswer(message, notes, payer.others);
  // Requested services' codes are verified against the notes like the body's (a scan cannot verify: they stay).
  const keptServices = services?.filter((service) => notes.pages === null || notes.search.codePages(service.code).length > 0);
  const removed = (services ?? []).filter((service) => !keptServices?.includes(service)).map((service) => service.code);
  const notMet = read.criteria.filter((criterion) => criterion.status === 'not_met');
  return {
    body: read.body,
    ...(policy ? { criteria: read.criteria, missingEvidence: read.missingEvidence } : {}),
    ...(denial ? { denial: checkDenial(read.denial, payer.denialPages) } : {}),
    ...(keptServices ? { services: keptServices } : {}),
    notFound: read.notFound,
    notices: [
      ...(read.dropped > 0 ? [criteriaDroppedNotice(read.dropped)] : []),
      ...(notMet.length ? [criteriaNotMetNotice(notMet.map((criterion) => criterion.criterion))] : []),
      ...unverifiedServiceNotices(removed),
    ],
  };
}

/** The policy's and denial's citations the letter lists under "Source documentation". */
export type SourceCitations = { policy: Citation[]; denial: Citation[] };
