import { readFile } from 'node:fs/promises';
import { invokeHandler } from './awslambda.js';
import { startLocalEnvironment } from './environment.js';
import { FUNCTIONS, loadHandler, type FunctionName } from './routes.js';

/**
 * `npm run invoke -- <function> <event.json>`: runs one handler on one sample event, in-process,
 * with the same local environment as `npm start`, and prints what the function returned.
 */

const [name, file] = process.argv.slice(2);
if (!name || !file || !(name in FUNCTIONS)) {
  process.stderr.write(`usage: npm run invoke -- <${Object.keys(FUNCTIONS).join('|')}> <event.json>\n`);
  process.exit(2);
}

const event = JSON.parse(await readFile(file, 'utf8')) as unknown;
const environment = await startLocalEnvironment();
try {
  const handler = await loadHandler(name as FunctionName);
  const deadline = Date.now() + 130_000;
  const context = { functionName: `local-${name}`, awsRequestId: 'local-invoke', getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) };
  // The authorizer takes no context; a streamed function's prelude and body are collected into one result.
  const result = name === 'authorizer' ? await (handler as (event: unknown) => Promise<unknown>)(event) : await invokeHandler(handler, event, context);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} finally {
  await environment.close();
}
