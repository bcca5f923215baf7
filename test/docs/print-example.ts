import { docJson, examplesOf } from '../support/doc-examples.js';
import { startLocalEnvironment } from '../../infra/dev/local/environment.js';
import { startLocalServer } from '../../infra/dev/local/server.js';

/**
 * Prints what the local server answers today to one example of the docs, formatted as the docs print
 * answers, to paste over a stale one (docs/testing.md#docs-examples):
 *
 *     npx tsx test/docs/print-example.ts README.md marcus-lee
 */

const [file, name] = process.argv.slice(2);
const example = examplesOf(file!).examples.find((e) => e.name === name);
if (!example || example.notRun || example.requests.length === 0) {
  console.error(example ? (example.notRun ?? example.problems.join('\n')) : `no example "${name}" in ${file}`);
  process.exit(2);
}
Object.assign(process.env, { LOG_LEVEL: 'ERROR' }, example.serverEnv);
const environment = await startLocalEnvironment(process.env);
const api = await startLocalServer({ port: 0 });
try {
  for (const request of example.requests) {
    const response = await fetch(`${api.url}${request.url}`, { method: request.method, headers: request.headers, body: request.body });
    const text = await response.text();
    console.log(`${request.method} ${request.url} → ${response.status}`);
    console.log(/json/.test(response.headers.get('content-type') ?? '') && text ? docJson(JSON.parse(text)) : text);
  }
} finally {
  await api.close();
  await environment.close();
}
