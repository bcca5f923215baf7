import { describe, expect, it } from '@jest/globals';
import { cobSummary, eligibilitySummary, errorSummary, payerSearchSummary } from '../../lib/mcp/summary.js';

const na = { copay: 'N/A', deductible: { total: 'N/A', remaining: 'N/A' }, coinsurance: 'N/A', stopLoss: 'N/A', stopLossRemaining: 'N/A' };

describe('MCP summaries', () => {
  it('says the status and the individual in-network figures a front desk asks for first', () => {
    const body = {
      coverageStatus: 'Active',
      payerName: 'AETNA',
      inNetwork: {
        individual: {
          copay: '$25.00',
          deductible: { total: '$1,500.00', remaining: '$320.00' },
          coinsurance: '20%',
          stopLoss: '$3,000.00',
          stopLossRemaining: 'N/A',
        },
        family: na,
      },
      outNetwork: { individual: na, family: na },
      notices: [{ code: 'OTHER_PAYER', message: '…' }],
      estimate: { patientOwes: '$120.00', planPays: '$380.00' },
    };
    expect(eligibilitySummary(body)).toBe(
      'Active; in network: $25.00 copay, $1,500.00 deductible with $320.00 remaining, 20% coinsurance, $3,000.00 out-of-pocket maximum. Payer: AETNA. Estimate: the patient owes $120.00 and the plan pays $380.00 (a guide; the payer adjudicates the claim). Notices: OTHER_PAYER.',
    );
  });

  it('says so when the payer returned no figures, and names a failed COB part', () => {
    expect(
      eligibilitySummary({
        coverageStatus: 'Unknown',
        inNetwork: { individual: na },
        outNetwork: { individual: na },
        cob: { code: 'PAYER_UNAVAILABLE', message: 'x' },
      }),
    ).toBe('Unknown; the payer returned no plan-wide figures. The coordination of benefits part failed (PAYER_UNAVAILABLE).');
  });

  it('explains COB codes and names the other plans', () => {
    expect(
      cobSummary({ cobCode: 'CobInstanceExistsPrimacyDetermined', additionalPlanBenefitInfo: [{ payerName: 'CIGNA', payerPrimacy: 'SecondaryPayer' }] }),
    ).toBe(
      'COB CobInstanceExistsPrimacyDetermined: Other coverage exists and the payers have determined which pays first. Other plans: CIGNA as SecondaryPayer.',
    );
  });

  it('lists the first payers found and says when there are more', () => {
    expect(payerSearchSummary({ payers: [] })).toBe('No payer in the directory matches.');
    expect(payerSearchSummary({ payers: [{ name: 'Aetna', payerId: '60054', transactions: { eligibility: 'SUPPORTED' } }], nextPageToken: 't' })).toBe(
      '1 payer found: Aetna (payerId 60054, eligibility SUPPORTED). More on the next page (pageToken).',
    );
  });

  it('writes an error as CODE: message with each field problem', () => {
    expect(
      errorSummary({ code: 'INVALID_REQUEST', message: 'The request body is invalid (1 problem)', errors: [{ field: 'payerId', message: 'is required' }] }),
    ).toBe('INVALID_REQUEST: The request body is invalid (1 problem) (payerId is required)');
    expect(errorSummary({ message: 'Mock request not found' })).toBe('Mock request not found');
  });
});
