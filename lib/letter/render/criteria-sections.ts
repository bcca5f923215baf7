import { escapeMarkdown, type Citation, type Criterion, type Denial } from '../compose/index.js';
import type { RequestedService } from '../../validation/index.js';

/**
 * What a policy-grounded letter shows besides the body (docs/letter.md#letter-types), decided once
 * for the markdown and the PDF: the "Requested services" block and the denial being appealed
 * (before the body), and the criteria table (after it). Each row's cells are plain strings; the
 * markdown escapes them and the PDF draws them in a table (./criteria-table.ts).
 */

export interface PayerSections {
  policyCitations: Citation[];
  denialCitations: Citation[];
  criteria?: Criterion[];
  services?: RequestedService[];
  denial?: Denial;
}

export const SERVICES_TITLE = 'Requested services';
export const DENIAL_TITLE = 'Denial under appeal';
export const CRITERIA_TITLE = 'Coverage criteria';
export const CRITERIA_COLUMNS = ['Criterion', 'Status', 'Evidence (notes pages)'] as const;

const STATUS_LABEL: Record<Criterion['status'], string> = { met: 'Met', not_met: 'Not met', unclear: 'Unclear' };

/** One line per requested service: code, units, dates when given. */
export function serviceLines(services: RequestedService[]): string[] {
  return services.map((service) =>
    [
      service.code,
      service.units !== undefined ? `${service.units} unit${service.units === 1 ? '' : 's'}` : '',
      service.dateFrom || service.dateTo
        ? `${service.dateFrom ?? ''}${service.dateTo && service.dateTo !== service.dateFrom ? ` to ${service.dateTo}` : ''}`.trim()
        : '',
    ]
      .filter(Boolean)
      .join(', '),
  );
}

/** The denial as labelled lines: the reason quoted, then its codes and the deadline when kept. */
export function denialLines(denial: Denial): Array<[label: string, value: string]> {
  const codes = (list: Denial['carcCodes']) => list.map((c) => `${c.code} (${c.description.replace(/\.$/, '')})`).join('; ');
  return [
    ['Stated reason', `“${denial.reason}”`] as [string, string],
    ...(denial.carcCodes.length ? [['Claim adjustment reason codes', codes(denial.carcCodes)] as [string, string]] : []),
    ...(denial.rarcCodes.length ? [['Remark codes', codes(denial.rarcCodes)] as [string, string]] : []),
    ...(denial.appealDeadline ? [['Appeal deadline', denial.appealDeadline] as [string, string]] : []),
  ];
}

/** A criterion as table cells: the criterion and its policy pages, the status, the notes pages. */
export function criterionCells(criterion: Criterion): [string, string, string] {
  const pages = [...new Set(criterion.evidence.map((e) => e.page))];
  return [
    `${criterion.criterion} [policy p. ${criterion.policyPages.join(', ')}]`,
    STATUS_LABEL[criterion.status],
    pages.length ? pages.map((page) => `p. ${page}`).join(', ') : '—',
  ];
}

const cell = (text: string) => escapeMarkdown(text).replace(/\|/g, '\\|');

/** The sections as markdown lines, before or after the body; nothing for a plain letter. */
export function criteriaMarkdown(payer: PayerSections | undefined, where: 'before' | 'after'): string[] {
  if (!payer) return [];
  if (where === 'before') {
    return [
      ...(payer.services?.length ? [`### ${SERVICES_TITLE}`, '', ...serviceLines(payer.services).map((line) => `- ${escapeMarkdown(line)}`), ''] : []),
      ...(payer.denial
        ? [`### ${DENIAL_TITLE}`, '', ...denialLines(payer.denial).map(([label, value]) => `- **${label}:** ${escapeMarkdown(value)}`), '']
        : []),
    ];
  }
  if (!payer.criteria?.length) return [];
  return [
    `### ${CRITERIA_TITLE}`,
    '',
    `| ${CRITERIA_COLUMNS.join(' | ')} |`,
    '| --- | --- | --- |',
    ...payer.criteria.map((criterion) => `| ${criterionCells(criterion).map(cell).join(' | ')} |`),
    '',
  ];
}
