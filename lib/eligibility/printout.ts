import { type Cell, CONTENT_WIDTH, onePagePdf, type PageWriter, type Run } from '../pdf/index.js';
import type { EligibilityRequest } from '../validation/index.js';
import type { EligibilityBody, MockEligibilityBody } from './types.js';

/**
 * The printable summary (docs/api.md#printable-summary): one US Letter page of the very answer the
 * JSON route gives, for a front desk to file with the visit. Payer, plan, patient, coverage status,
 * the in/out-of-network × individual/family figures, the services asked about, the estimate when
 * asked, the notices, and when the payer was asked. It reads the answer and the request it came from,
 * nothing else (no clock): the same answer prints the same bytes, so an Idempotency-Key replay does.
 * A list too long for the page ends with "and N more".
 */

/** A real answer, or a mock one (the figures and the message, perhaps an estimate): the keys a mock lacks are optional. */
type Answer = Partial<Omit<EligibilityBody, 'inNetwork' | 'outNetwork' | 'message'>> & Pick<MockEligibilityBody, 'inNetwork' | 'outNetwork'>;

const TITLE = 'Eligibility summary';
const BODY = { size: 9.5, leading: 13 };
const SMALL = { size: 8.5, leading: 11.5 };
/** Room kept at the bottom for the closing line. */
const FOOTER_ROOM = 2 * SMALL.leading + 6;
/** The date a mock answer's document carries (it was checked with no payer, at no time). */
const NO_DATE = new Date(0);

const plain = (text: string): Run => ({ text, style: 'regular' });
const bold = (text: string): Run => ({ text, style: 'bold' });
const field = (label: string, value: string): Run[] => [bold(`${label}: `), plain(value)];

/** `YYYY-MM-DD` as `MM/DD/YYYY`, the way a US front desk reads a date; anything else as given. */
const usDate = (iso: string | undefined): string => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso ?? '');
  return m ? `${m[2]}/${m[3]}/${m[1]}` : (iso ?? '');
};
const requestDate = (mmddyyyy: string) => mmddyyyy.replace(/-/g, '/');
const joined = (...parts: Array<string | undefined>) => parts.filter((part): part is string => Boolean(part?.trim())).join(' ');

/** The summary as PDF bytes. */
export async function eligibilityPdf(answer: unknown, request: EligibilityRequest): Promise<Uint8Array> {
  const body = answer as Answer;
  return onePagePdf({ title: TITLE, creator: 'Eligibility service', date: body.checkedAt ? new Date(body.checkedAt) : NO_DATE }, (page) =>
    layOut(page, body, request),
  );
}

function layOut(page: PageWriter, body: Answer, request: EligibilityRequest): void {
  const mock = body.checkedAt === undefined;
  page.text([bold(TITLE)], { size: 16, leading: 20 });
  page.text([plain(mock ? 'Mock answer: no payer was asked (mockRequest).' : `Checked ${body.checkedAt} (UTC) with the payer.`)], SMALL);
  page.rule();

  page.text(field('Payer', joined(body.payerName, `(payer id ${request.payerId})`)), { ...BODY, maxLines: 2 });
  const plan = body.plan ?? {};
  const planLine = joined(
    plan.name,
    plan.insuranceType ? `· ${plan.insuranceType.name}` : undefined,
    plan.groupNumber ? `· group ${plan.groupNumber}` : undefined,
    plan.planBegin ? `· plan ${usDate(plan.planBegin)} to ${plan.planEnd ? usDate(plan.planEnd) : 'open end'}` : undefined,
  );
  if (planLine) page.text(field('Plan', planLine), { ...BODY, maxLines: 2 });
  for (const [label, value] of patientLines(body, request)) page.text(field(label, value), { ...BODY, maxLines: 2 });
  page.text(field('Date of service', requestDate(request.dateOfCoverage)), BODY);
  page.text([bold('Coverage status: '), bold(body.coverageStatus ?? 'see the figures below (a mock answer has no status)')], { size: 11, leading: 15 });
  page.space(4);

  figuresTable(page, body);
  page.space(6);
  if (body.benefits?.length) {
    heading(page, 'Services asked about');
    list(
      page,
      body.benefits.map((entry) => [bold(`${entry.serviceType.code} ${entry.serviceType.name}: `), plain(serviceLine(entry))]),
      'services',
      MAX_ENTRIES.services,
    );
  }
  if (body.procedures?.length) {
    heading(page, 'Procedures asked about');
    list(
      page,
      body.procedures.map((entry) => [bold(`${entry.code}: `), plain(figureLine(entry.inNetwork.individual, entry.authorizationRequired))]),
      'procedures',
      MAX_ENTRIES.procedures,
    );
  }
  if (body.estimate) estimate(page, body.estimate);
  if (body.notices?.length) {
    heading(page, 'Notices');
    list(
      page,
      body.notices.map((notice) => [plain(notice.message)]),
      'notices',
      MAX_ENTRIES.notices,
    );
  }
  closing(page, mock);
}

function patientLines(body: Answer, request: EligibilityRequest): Array<[string, string]> {
  const s = body.subscriber;
  const d = body.dependent;
  const asked = joined(request.patientFirstName, request.patientLastName);
  if (d) {
    return [
      [
        'Patient',
        joined(d.firstName, d.lastName, d.dateOfBirth ? `· born ${usDate(d.dateOfBirth)}` : undefined, d.relationship ? `· ${d.relationship}` : undefined),
      ],
      ['Subscriber', joined(s?.firstName, s?.lastName, s?.memberId ? `· member id ${s.memberId}` : undefined)],
    ];
  }
  if (s && (s.firstName || s.lastName || s.memberId)) {
    return [
      [
        'Patient',
        joined(s.firstName, s.lastName, s.dateOfBirth ? `· born ${usDate(s.dateOfBirth)}` : undefined, s.memberId ? `· member id ${s.memberId}` : undefined),
      ],
    ];
  }
  return [['Patient', joined(asked, `· born ${requestDate(request.patientDOB)}`, `· member id ${request.patientMemberId}`)]];
}

type Figures = Answer['inNetwork']['individual'] & { stopLossRemaining?: string };
type Benefit = NonNullable<Answer['benefits']>[number];

const ROWS: Array<[string, (f: Figures) => string | undefined]> = [
  ['Copay', (f) => f.copay],
  ['Deductible', (f) => f.deductible.total],
  ['Deductible remaining', (f) => f.deductible.remaining],
  ['Coinsurance', (f) => f.coinsurance],
  ['Out-of-pocket maximum', (f) => f.stopLoss],
  ['Out-of-pocket remaining', (f) => f.stopLossRemaining],
];

/** The in/out-of-network × individual/family figures, one row per figure. */
function figuresTable(page: PageWriter, body: Answer): void {
  const label = 150;
  const column = (CONTENT_WIDTH - label) / 4;
  const cells = (texts: Run[][]): Cell[] =>
    texts.map((runs, i) => ({ runs, x: i === 0 ? 0 : label + (i - 1) * column, width: i === 0 ? label - 6 : column - 6 }));
  const levels = [body.inNetwork.individual, body.inNetwork.family, body.outNetwork.individual, body.outNetwork.family] as Figures[];
  page.row(cells([[bold('')], [bold('In network')], [], [bold('Out of network')], []]), BODY.size, BODY.leading);
  page.row(cells([[bold('Figure')], [bold('Individual')], [bold('Family')], [bold('Individual')], [bold('Family')]]), BODY.size, BODY.leading);
  for (const [name, read] of ROWS) {
    if (levels.every((level) => read(level) === undefined)) continue;
    page.row(cells([[plain(name)], ...levels.map((level) => [plain(read(level) ?? '')])]), BODY.size, BODY.leading);
  }
  page.rule();
}

function figureLine(f: Figures, authorization?: boolean | string): string {
  const parts = [`copay ${f.copay}`, `deductible remaining ${f.deductible.remaining}`, `coinsurance ${f.coinsurance}`];
  if (authorization === true) parts.push('prior authorization required');
  return `in network, individual: ${parts.join(', ')}`;
}

const serviceLine = (entry: Benefit): string => `${entry.status}; ${figureLine(entry.inNetwork.individual as Figures, entry.authorizationRequired)}`;

function heading(page: PageWriter, text: string): void {
  if (page.room() < FOOTER_ROOM + 2 * BODY.leading) return;
  page.space(2);
  page.text([bold(text)], { size: 11, leading: 15 });
}

/** Most entries each list shows, so the lists after it keep room on the page. */
const MAX_ENTRIES = { services: 12, procedures: 6, lines: 6, notices: 10 } as const;
const LIST = { ...SMALL, indent: 10, maxLines: 2 };

/** At most `max` items, and only while they fit above the closing line; the rest counted as "and N more <noun>". */
function list(page: PageWriter, items: Run[][], noun: string, max: number): void {
  for (const [index, runs] of items.entries()) {
    const left = items.length - index;
    const need = page.height([plain('• '), ...runs], LIST) + (left > 1 ? LIST.leading : 0);
    if (index >= max || page.room() - FOOTER_ROOM < need) {
      if (page.room() - FOOTER_ROOM >= LIST.leading) page.text([plain(`and ${left} more ${noun}`)], LIST);
      return;
    }
    page.text([plain('• '), ...runs], LIST);
  }
}

function estimate(page: PageWriter, estimate: NonNullable<Answer['estimate']>): void {
  heading(page, `Estimate (${estimate.network === 'in' ? 'in network' : 'out of network'})`);
  if (page.room() < FOOTER_ROOM + BODY.leading) return;
  page.text(
    [
      bold('Patient owes: '),
      plain(estimate.patientOwes),
      plain('   '),
      bold('Plan pays: '),
      plain(estimate.planPays),
      plain(estimate.complete ? '' : '   (incomplete: the payer left figures out)'),
    ],
    BODY,
  );
  list(
    page,
    estimate.lines.map((line) => [
      bold(`${line.procedureCode ?? line.serviceTypeCode}: `),
      plain(
        `amount ${line.amount}, patient owes ${line.patientOwes}, plan pays ${line.planPays}${line.missing?.length ? ` (missing: ${line.missing.join(', ')})` : ''}`,
      ),
    ]),
    'lines',
    MAX_ENTRIES.lines,
  );
  if (estimate.balanceBillingNote) list(page, [[plain(estimate.balanceBillingNote)]], 'notes', 1);
}

function closing(page: PageWriter, mock: boolean): void {
  page.space(Math.max(0, page.room() - FOOTER_ROOM));
  page.rule();
  page.text(
    [
      plain(
        mock
          ? 'A mock answer, printed for testing.'
          : 'What the payer said on the date checked; not a guarantee of payment. The payer decides what a claim pays.',
      ),
    ],
    { ...SMALL, maxLines: 2 },
  );
}
