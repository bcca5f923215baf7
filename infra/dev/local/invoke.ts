import { readFile } from 'node:fs/promises';
import { FUNCTION_TABLE } from '../../../lib/http/index.js';
import { invokeHandler } from './awslambda.js';
import { startLocalEnvironment } from './environment.js';
import { FUNCTION_NAMES, loadHandler, type FunctionName } from './routes.js';

/**
 * `npm run invoke -- <function> <event.json>`: runs one handler on one sample event, in-process,
 * with the same local environment as `npm start`. Only the handler's result goes to stdout (as
 * JSON, so `| jq` works); every log line and note goes to stderr.
 */

// Log lines (Powertools writes them to process.stdout) go to stderr; the result alone to stdout.
const writeResult = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

const [name, file] = process.argv.slice(2);
const usage = `usage: npm run invoke -- <${FUNCTION_NAMES.join('|')}> <event.json>   (samples in events/)`;
if (!name || !file) fail(usage);
if (!FUNCTION_NAMES.includes(name as FunctionName)) fail(`unknown function "${name}"\n${usage}`);

let text: string;
try {
  text = await readFile(file, 'utf8');
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  fail(
    code === 'ENOENT'
      ? `event file not found: ${file} (samples are in events/, e.g. events/eligibility-mock-1.json)`
      : `cannot read event file ${file}: ${code ?? (error as Error).message}`,
  );
}
let event: unknown;
try {
  event = JSON.parse(text);
} catch (error) {
  fail(`event file ${file} is not JSON: ${(error as Error).message}`);
}

const environment = await startLocalEnvironment();
try {
  const handler = await loadHandler(name as FunctionName);
  const deadline = Date.now() + FUNCTION_TABLE[name as FunctionName].timeoutSeconds * 1000;
  const context = { functionName: `local-${name}`, awsRequestId: 'local-invoke', getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) };
  // The authorizer takes no context; a streamed function's prelude and body are collected into one result.
  const result = name === 'authorizer' ? await (handler as (event: unknown) => Promise<unknown>)(event) : await invokeHandler(handler, event, context);
  writeResult(`${JSON.stringify(result, null, 2)}\n`);
} finally {
  await environment.close();
}
