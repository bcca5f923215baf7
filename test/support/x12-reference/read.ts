/**
 * The layered reference reading of a reply: tokenize → readEnvelope → readLoops271, then each 271's
 * loop model turned into what interpretRead takes (the same Read271 shape read271 produces). The
 * EB elements are read by the production readBenefitAt; everything else — which loop a segment
 * belongs to, which HL is the patient, the 2100 person, the 2110 DTP/MSG/REF and 2120 NM1 — comes
 * from the loop model, so the differential test checks read271's single pass against it.
 */
import { addDate, addMessage, readBenefitAt, type BenefitRow, type Period } from '../../../lib/eligibility/benefit-row.js';
import { emptyPerson, type Doc271, type PersonLoop, type Read271 } from '../../../lib/eligibility/read271.js';
import { codesOf } from '../../../lib/x12/scan.js';
import { rejectionsOf } from './aaa.js';
import { readEnvelope, transactionsOf } from './envelope.js';
import { readLoops271, type BenefitLoop, type HlLoop, type NameLoop, type Transaction271 } from './loops271.js';
import { element, type Segment } from './segment.js';
import { tokenize } from './tokenizer.js';

const PAYER_ENTITIES = new Set(['PR', 'PRP', 'SEP', 'TTP']);

const period = (segment: Segment): Period => ({ qualifier: element(segment, 1), format: element(segment, 2), value: element(segment, 3) });

function rowOf(loop: BenefitLoop): BenefitRow {
  const eb = loop.eb;
  const row = readBenefitAt(eb.text, codesOf(eb.text), eb.offset, eb.stop, eb.delimiters, loop.order);
  for (const segment of loop.segments) {
    if (segment.id === 'DTP') addDate(row, period(segment));
    else if (segment.id === 'MSG') addMessage(row, element(segment, 1));
    else if (segment.id === 'REF' && element(segment, 1) === 'IG' && row.memberRef === '') row.memberRef = element(segment, 2);
  }
  for (const related of loop.related) {
    const nm1 = related.nm1;
    if (row.entity === undefined && PAYER_ENTITIES.has(element(nm1, 1))) row.entity = { name: element(nm1, 3), idQualifier: element(nm1, 8), id: element(nm1, 9) };
    for (const segment of related.segments) {
      if (segment.id === 'REF' && element(segment, 1) === 'IG' && row.entityMemberRef === '') row.entityMemberRef = element(segment, 2);
    }
  }
  return row;
}

function personOf(name: NameLoop | undefined): PersonLoop | undefined {
  if (!name) return undefined;
  const person = emptyPerson();
  person.lastName = element(name.nm1, 3);
  person.firstName = element(name.nm1, 4);
  person.idQualifier = element(name.nm1, 8);
  person.id = element(name.nm1, 9);
  for (const segment of name.segments) {
    switch (segment.id) {
      case 'DTP':
        person.dates.push(period(segment));
        break;
      case 'DMG':
        if (person.dateOfBirth === '' && element(segment, 1) === 'D8') person.dateOfBirth = element(segment, 2);
        break;
      case 'INS':
        if (person.relationship === '') person.relationship = element(segment, 2);
        break;
      case 'REF':
        if (element(segment, 1) === '6P' && person.groupNumber === '' && person.groupName === '') {
          person.groupNumber = element(segment, 2);
          person.groupName = element(segment, 3);
        } else if (element(segment, 1) === '18' && person.planNumber === '') person.planNumber = element(segment, 2);
        break;
    }
  }
  return person;
}

function docOf(loops: Transaction271): Doc271 {
  const first = (letter: string): HlLoop | undefined => loops.levels.find((l) => l.level === letter);
  const patient = first('D');
  let subscriber = first('C');
  const chosen = patient ?? subscriber;
  const doc: Doc271 = {
    hasSubscriber: subscriber !== undefined,
    patientBenefits: chosen ? chosen.benefits.map(rowOf) : [],
    subscriber: undefined,
    dependent: undefined,
    payerName: '',
    aaa: rejectionsOf(loops),
    warnings: loops.warnings,
  };
  if (patient) {
    doc.dependent = personOf(patient.names[0]) ?? emptyPerson();
    if (patient.parent?.level === 'C') subscriber = patient.parent;
  }
  doc.subscriber = personOf(subscriber?.names[0]);
  const payer = first('A');
  if (payer?.names[0]) doc.payerName = element(payer.names[0].nm1, 3);
  return doc;
}

export function referenceRead(x12: string): Read271 {
  const tokens = tokenize(x12);
  if (!tokens.ok) return { ok: false, error: tokens.error, warnings: tokens.warnings };
  const envelope = readEnvelope(tokens.segments);
  const transactions = transactionsOf(envelope);
  return {
    ok: true,
    warnings: [...tokens.warnings, ...envelope.warnings],
    responses: transactions.filter((t) => t.setId === '271').length,
    acknowledged: transactions.some((t) => t.setId === '999'),
    docs: transactions.filter((t) => t.setId === '271').map((t) => docOf(readLoops271(t))),
  };
}
