import { startLocalEnvironment } from './environment.js';
import { startLocalServer } from './server.js';

/** `npm start`: the whole API on localhost, with sandboxes for every upstream that has no key. */

const environment = await startLocalEnvironment();
const port = Number(process.env.PORT ?? 3000);
const server = await startLocalServer({ port, host: process.env.HOST ?? '127.0.0.1' });

const banner = [
  `Eligibility service listening on ${server.url}`,
  ...environment.notes.map((note) => `  - ${note}`),
  environment.devToken
    ? `Try: curl -s ${server.url}/api/eligibility/v1 -H 'Authorization: Bearer ${environment.devToken}' -H 'Content-Type: application/json' -d '{"patientFirstName":"John","patientLastName":"Doe","patientDOB":"01-01-1980","patientMemberId":"123456789","dateOfCoverage":"01-01-2025","payerId":"PAYER001","providerId":"PROVIDER001","mockRequest":true}'`
    : '',
].filter(Boolean);
process.stderr.write(`${banner.join('\n')}\n`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  process.stderr.write(`${signal}: stopping\n`);
  await server.close();
  await environment.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
