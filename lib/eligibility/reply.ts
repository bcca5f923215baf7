/**
 * A payer's reply read for the answer (docs/eligibility.md#how-the-271-is-read): tokenizer →
 * envelope → 271 loops (lib/x12), then, per 271 transaction set, what the answer needs of it: the
 * patient's EB rows, the subscriber and dependent, the payer name, every AAA and the warnings.
 * Every 271 transaction set is read (a reply may carry one per member, docs/eligibility.md#several-transactions).
 */
import type { AaaRejection } from '../errors/index.js';
import { element, type LevelLoop, readEnvelope, readLoops271, rejection, tokenize, type Transaction271 } from '../x12/index.js';
import { type BenefitRow, benefitRowOf } from './benefit-row.js';
import { emptyPerson, type PersonLoop, personOf } from './plan.js';

/** What the answer needs of one 271 transaction set. */
export interface Patient271 {
  /** Whether any HL is a 2000C. */
  hasSubscriber: boolean;
  /** EB rows of the patient loop (the first 2000D, else the first 2000C). */
  patientBenefits: BenefitRow[];
  /** 2100C of the patient's subscriber (the 2000D's parent 2000C, else the first 2000C). */
  subscriber: PersonLoop | undefined;
  /** 2100D of the patient when the patient loop is a 2000D (fields empty when it has no NM1). */
  dependent: PersonLoop | undefined;
  /** NM103 of the first 2100A of the first 2000A ('' when absent). */
  payerName: string;
  /** Every AAA, in document order, with its loop. */
  aaa: AaaRejection[];
  warnings: string[];
}

export type Reply =
  | { ok: false; error: { message: string; offset: number }; warnings: string[] }
  | {
      ok: true;
      /** Tokenizer warnings, then envelope warnings. */
      warnings: string[];
      /** Whether any transaction set is a 999. */
      acknowledged: boolean;
      /** Every 271 transaction set, in order. */
      transactions: Patient271[];
    };

const RESPONSE = '271';
const ACKNOWLEDGMENT = '999';

function patientOf(loops: Transaction271): Patient271 {
  const first = (letter: string): LevelLoop | undefined => loops.levels.find((level) => level.level === letter);
  const dependent = first('D');
  const subscriber = dependent?.parent?.level === 'C' ? dependent.parent : first('C');
  const patient = dependent ?? first('C');
  const payer = first('A')?.names[0];
  return {
    hasSubscriber: first('C') !== undefined,
    patientBenefits: patient ? patient.benefits.map(benefitRowOf) : [],
    subscriber: subscriber?.names[0] ? personOf(subscriber.names[0]) : undefined,
    dependent: dependent ? (dependent.names[0] ? personOf(dependent.names[0]) : emptyPerson()) : undefined,
    payerName: payer ? element(payer.segments[0]!, 3) : '',
    aaa: loops.aaa.map(({ segment, loop }) => rejection(element(segment, 3), element(segment, 4), loop)),
    warnings: loops.warnings,
  };
}

export function readReply(x12: string): Reply {
  const tokens = tokenize(x12);
  if (!tokens.ok) return tokens;
  const envelope = readEnvelope(tokens.segments);
  return {
    ok: true,
    warnings: [...tokens.warnings, ...envelope.warnings],
    acknowledged: envelope.transactions.some((t) => t.setId === ACKNOWLEDGMENT),
    transactions: envelope.transactions.filter((t) => t.setId === RESPONSE).map((t) => patientOf(readLoops271(t.body))),
  };
}
