import { readRepoFile } from './repo-docs.js';

/**
 * The request/answer examples of README.md and docs/*.md, found by their markers, as docs/testing.md#docs-examples
 * describes: `<!-- example: NAME -->` before a fenced block of curl commands, its answer the json block right
 * after it (or one marked `<!-- answer: NAME -->`), `<!-- file: NAME -->` before a block a curl sends with
 * `-d @NAME`, and `<!-- example: NAME (not run: REASON) -->` for one the test cannot run.
 */

/** What a doc shows of an answer: each part is checked when present. */
export interface ShownAnswer {
  status?: number;
  /** The error `code` of the body (an inline `# 405 METHOD_NOT_ALLOWED`). */
  code?: string;
  headers: Record<string, string>;
  body?: unknown;
  /** `N of M items`: arrays shorter than the real ones show N of the M items, in order. */
  items?: { shown: number; total: number };
  /** Where the shown answer is (file:line), for messages. */
  at?: string;
}

/** One curl command of an example. */
export interface DocRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  answer: ShownAnswer;
}

export interface DocExample {
  file: string;
  name: string;
  line: number;
  /** Why it is not run; undefined when it is. */
  notRun?: string;
  requests: DocRequest[];
  /** `NAME=value npm start` lines: the environment the server needs. */
  serverEnv: Record<string, string>;
  /** A problem with the example itself (unknown command, undefined variable, answer that is not JSON). */
  problems: string[];
}

interface Fence {
  line: number;
  lang: string;
  text: string;
  /** The markdown lines between the previous fence (or the file's start) and this one. */
  before: string[];
}

/** The fenced blocks of a markdown file, with the lines before each. */
export function fencesOf(markdown: string): Fence[] {
  const lines = markdown.split('\n');
  const fences: Fence[] = [];
  let since = 0;
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.findIndex((line, j) => j > i && /^\s*```\s*$/.test(line));
    const close = end < 0 ? lines.length : end;
    fences.push({ line: i + 1, lang: open[1]!, text: lines.slice(i + 1, close).join('\n'), before: lines.slice(since, i) });
    since = close + 1;
    i = close;
  }
  return fences;
}

const MARKER = /^<!-- (example|answer|file): ([\w.-]+)(?:,? (.*?))? -->$/;
const lastMarker = (fence: Fence) => {
  const lines = fence.before.filter((line) => line.trim() !== '');
  return MARKER.exec(lines.at(-1)?.trim() ?? '');
};

/** The markdown files whose examples are checked: README.md and every docs/*.md. */
export const EXAMPLE_FILES = (readdir: (dir: string) => string[]) => [
  'README.md',
  ...readdir('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Every example of one markdown file, and the curl blocks that carry no marker (each one a problem). */
export function examplesOf(file: string, markdown = readRepoFile(file)): { examples: DocExample[]; unmarked: string[] } {
  const fences = fencesOf(markdown);
  const files = new Map<string, string>();
  const answers = new Map<string, Fence & { options: string }>();
  for (const fence of fences) {
    const marker = lastMarker(fence);
    if (marker?.[1] === 'file') files.set(marker[2]!, fence.text);
    if (marker?.[1] === 'answer') answers.set(marker[2]!, { ...fence, options: marker[3] ?? '' });
  }
  const examples: DocExample[] = [];
  const unmarked: string[] = [];
  fences.forEach((fence, index) => {
    const marker = lastMarker(fence);
    if (marker?.[1] !== 'example') {
      if (/(^|\s)curl\s/m.test(fence.text))
        unmarked.push(`${file}:${fence.line}: a curl block with no <!-- example: NAME --> before it (or NAME (not run: why))`);
      return;
    }
    const name = marker[2]!;
    const notRun = /^\(not run: (.+)\)$/.exec(marker[3] ?? '')?.[1];
    const example: DocExample = { file, name, line: fence.line, notRun, requests: [], serverEnv: {}, problems: [] };
    examples.push(example);
    if (notRun) return;
    if (marker[3]) example.problems.push(`unknown marker text "${marker[3]}" (only "(not run: reason)")`);
    readCommands(fence.text, example, files);
    const next = fences[index + 1];
    const marked = answers.get(name);
    const adjacent = next && next.lang === 'json' && !lastMarker(next) && next.before.every((line) => line.trim() === '' || line.trim().startsWith('<'));
    const answerFence = marked ?? (adjacent ? { ...next, options: '' } : undefined);
    if (!answerFence && next?.lang === 'json' && !lastMarker(next) && !next.before.some((line) => line.startsWith('#')))
      example.problems.push(`the json block at line ${next.line} follows with text between: mark it <!-- answer: ${name} --> if it is the answer`);
    if (!answerFence) return;
    const last = example.requests.at(-1);
    if (!last) {
      example.problems.push('an answer block follows, but the example holds no curl command');
      return;
    }
    try {
      last.answer.body = JSON.parse(answerFence.text);
    } catch (error) {
      example.problems.push(`the answer at line ${answerFence.line} is not JSON (${(error as Error).message}); elide with "…" as a value, key or array item`);
    }
    last.answer.at = `${file}:${answerFence.line}`;
    const status = /\bstatus (\d{3})\b/.exec(answerFence.options)?.[1];
    if (status) last.answer.status = Number(status);
    const items = /\b(\d+) of (\d+) items\b/.exec(answerFence.options);
    if (items) last.answer.items = { shown: Number(items[1]), total: Number(items[2]) };
    if (items && !answerFence.before.join(' ').includes(`${items[1]} of its ${items[2]} items`))
      example.problems.push(`the text before the answer at line ${answerFence.line} does not say "${items[1]} of its ${items[2]} items"`);
    const lines = /\((\d+) lines\)/.exec(answerFence.before.join('\n'))?.[1];
    const count = answerFence.text.split('\n').length;
    if (lines && Number(lines) !== count) example.problems.push(`the text before the answer says ${lines} lines; it has ${count}`);
  });
  for (const [name, answer] of answers)
    if (!examples.some((e) => e.name === name)) unmarked.push(`${file}:${answer.line}: <!-- answer: ${name} --> names no example of this file`);
  return { examples, unmarked };
}

/** A shell command line split into words as bash would, for the little bash the docs write. */
interface Command {
  words: string[];
  /** `NAME=value` words before the command. */
  assignments: Record<string, string>;
  comment: string[];
  stdin?: string;
  problems: string[];
}

function splitCommands(script: string, variables: Record<string, string>): Command[] {
  const commands: Command[] = [];
  let current: Command = { words: [], assignments: {}, comment: [], problems: [] };
  let word: string | null = null;
  let heredoc: string | null = null;
  let piped = false;
  let i = 0;
  const push = () => {
    if (word === null) return;
    const assignment = /^([A-Z_][A-Z0-9_]*)=([\s\S]*)$/.exec(word);
    if (!piped && current.words.length === 0 && assignment) current.assignments[assignment[1]!] = assignment[2]!;
    else if (!piped) current.words.push(word);
    word = null;
  };
  const expand = () => {
    const rest = script.slice(i + 1);
    const name = /^\{(\w+)\}|^(\w+)/.exec(rest);
    if (rest.startsWith('(')) {
      current.problems.push('uses a command substitution $(…), which the test cannot run');
      return 1;
    }
    if (!name) {
      word = `${word ?? ''}$`;
      return 1;
    }
    const variable = (name[1] ?? name[2])!;
    if (variables[variable] === undefined) current.problems.push(`uses $${variable}, which nothing before it sets`);
    word = `${word ?? ''}${variables[variable] ?? ''}`;
    return name[0].length + 1;
  };
  const endLine = () => {
    push();
    if (heredoc !== null) {
      const rest = script.slice(i + 1).split('\n');
      const end = rest.indexOf(heredoc);
      current.stdin = `${rest.slice(0, end < 0 ? rest.length : end).join('\n')}\n`;
      i += rest.slice(0, end < 0 ? rest.length : end + 1).join('\n').length + 1;
      heredoc = null;
    }
    if (current.words.length > 0 || Object.keys(current.assignments).length > 0) {
      commands.push(current);
      for (const [name, value] of Object.entries(current.assignments)) if (current.words.length === 0) variables[name] = value;
      current = { words: [], assignments: {}, comment: [], problems: [] };
    }
    piped = false;
  };
  while (i < script.length) {
    const c = script[i]!;
    if (c === '\\' && script[i + 1] === '\n') i += 2;
    else if (c === '\\') {
      word = `${word ?? ''}${script[i + 1]}`;
      i += 2;
    } else if (c === "'") {
      const end = script.indexOf("'", i + 1);
      word = `${word ?? ''}${script.slice(i + 1, end)}`;
      i = end + 1;
    } else if (c === '"') {
      i++;
      while (i < script.length && script[i] !== '"') {
        if (script[i] === '$') i += expand();
        else if (script[i] === '\\' && '"$\\`'.includes(script[i + 1]!)) {
          word = `${word ?? ''}${script[i + 1]}`;
          i += 2;
        } else {
          word = `${word ?? ''}${script[i]}`;
          i++;
        }
      }
      word ??= '';
      i++;
    } else if (c === '$') i += expand();
    else if (c === '#' && word === null) {
      const end = script.indexOf('\n', i);
      const text = script.slice(i + 1, end < 0 ? undefined : end).trim();
      const previous = commands.at(-1);
      if (current.words.length > 0) current.comment.push(text);
      else if (previous && script.slice(0, i).endsWith('\n') && !/\n\s*\n$/.test(script.slice(0, i + 1))) previous.comment.push(text);
      i = end < 0 ? script.length : end;
    } else if (c === '|') {
      push();
      piped = true;
      i++;
    } else if (c === '<' && script.startsWith('<<', i)) {
      push();
      const tag = /^<<-?\s*'?(\w+)'?/.exec(script.slice(i))!;
      heredoc = tag[1]!;
      i += tag[0].length;
    } else if (c === '\n' || c === ';') {
      endLine();
      i++;
    } else if (c === ' ' || c === '\t') {
      push();
      i++;
    } else {
      word = `${word ?? ''}${c}`;
      i++;
    }
  }
  endLine();
  return commands;
}

/** The local server as the docs write it (`npm start`'s address); the test sends to its own port instead. */
const LOCAL = /^http:\/\/(?:127\.0\.0\.1|localhost):3000(?=\/|$)/;

function readCommands(script: string, example: DocExample, files: Map<string, string>) {
  for (const command of splitCommands(script, {})) {
    example.problems.push(...command.problems);
    const [program, ...args] = command.words;
    if (program === undefined) continue;
    if (program === 'npm' && args.join(' ') === 'start') {
      Object.assign(example.serverEnv, command.assignments);
      continue;
    }
    if (program !== 'curl') {
      example.problems.push(`runs "${program}", which the test cannot run: mark the example (not run: why)`);
      continue;
    }
    const request: DocRequest = { method: 'GET', url: '', headers: {}, answer: { headers: {} } };
    let method: string | undefined;
    for (let k = 0; k < args.length; k++) {
      const arg = args[k]!;
      if (arg === '-X' || arg === '--request') method = args[++k];
      else if (arg === '-H' || arg === '--header') {
        const [name, ...value] = args[++k]!.split(':');
        request.headers[name!.trim().toLowerCase()] = value.join(':').trim();
      } else if (arg === '--json') {
        request.body = args[++k]!;
        request.headers['content-type'] ??= 'application/json';
        request.headers.accept ??= 'application/json';
        method ??= 'POST';
      } else if (['-d', '--data', '--data-binary', '--data-raw'].includes(arg)) {
        const data = args[++k]!;
        if (data === '@-') request.body = command.stdin ?? '';
        else if (data.startsWith('@') && arg !== '--data-raw') {
          const file = files.get(data.slice(1));
          if (file === undefined) example.problems.push(`sends ${data}, but no block is marked <!-- file: ${data.slice(1)} -->`);
          request.body = file ?? '';
        } else request.body = data;
        method ??= 'POST';
      } else if (arg === '-o' || arg === '--output') k++;
      else if (['--head', '--fail', '--silent', '--show-error', '--include'].includes(arg) || /^-[sSiILf]+$/.test(arg)) {
        if (arg === '--head' || /^-\w*I/.test(arg)) method = 'HEAD';
      } else if (LOCAL.test(arg)) request.url = arg.replace(LOCAL, '');
      else example.problems.push(`curl argument "${arg}" is not one the test reads (or the URL is not http://127.0.0.1:3000)`);
    }
    request.method = method ?? 'GET';
    try {
      request.answer = { ...inlineAnswer(command.comment), at: `${example.file}:${example.line}` };
    } catch (error) {
      example.problems.push(`an answer in a comment is not JSON (${(error as Error).message})`);
    }
    example.requests.push(request);
  }
}

/**
 * What a comment after a curl command shows: `{…}` a JSON body, `HTTP/1.1 200 OK` a status, `405 CODE` a
 * status and error code (then `, Header: value`), or a line `header-name: value`. Any other words are prose.
 */
function inlineAnswer(comments: string[]): ShownAnswer {
  const answer: ShownAnswer = { headers: {} };
  for (const comment of comments) {
    const statusLine = /^HTTP\/[\d.]+ (\d{3})\b/.exec(comment);
    const coded = /^(\d{3}) ([A-Z][A-Z_]+)((?:, [\w-]+: \S+)*)/.exec(comment);
    const header = /^([a-z][a-z0-9-]*): (\S+)$/.exec(comment);
    if (comment.startsWith('{') || comment.startsWith('[')) answer.body = JSON.parse(comment);
    else if (statusLine) answer.status = Number(statusLine[1]);
    else if (coded) {
      answer.status = Number(coded[1]);
      answer.code = coded[2];
      for (const pair of coded[3]!.split(', ').filter(Boolean)) {
        const [name, value] = pair.split(': ');
        answer.headers[name!.toLowerCase()] = value!;
      }
    } else if (header) answer.headers[header[1]!] = header[2]!;
  }
  return answer;
}

/**
 * Keys whose values differ on every call (times, ids the service makes, control numbers): only their
 * presence and JSON type are compared. Nothing else is ignored.
 */
export const VARYING_KEYS = new Set([
  'checkedAt',
  'createdAt',
  'updatedAt',
  'completedAt',
  'timestamp',
  'requestId',
  'batchId',
  'discoveryId',
  'controlNumber',
  'created',
  'lastUpdated',
  'fullUrl',
]);

/** The one elision mark: `"…"` as a value (any value), as an object key (more keys), or as an array item (more items there). */
export const ELIDED = '…';

const typeOf = (value: unknown) => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);

/** Where `shown` differs from `real`, as `path: why` lines; empty when the doc is true. */
export function differences(shown: unknown, real: unknown, path = '$', items?: { shown: number; total: number }): string[] {
  if (shown === ELIDED) return [];
  if (Array.isArray(shown) && Array.isArray(real)) {
    const anywhere = items !== undefined && shown.length === items.shown && real.length === items.total;
    if (!anywhere && !shown.includes(ELIDED) && shown.length !== real.length) return [`${path}: shows ${shown.length} items, the answer has ${real.length}`];
    let at = 0;
    let gap = anywhere;
    for (const [index, item] of shown.entries()) {
      if (item === ELIDED) {
        gap = true;
        continue;
      }
      let found = -1;
      for (let k = at; found < 0 && k < real.length && (gap || k === at); k++) if (differences(item, real[k], '', items).length === 0) found = k;
      if (found < 0) return gap || real[at] === undefined ? [`${path}[${index}]: not in the answer`] : differences(item, real[at], `${path}[${index}]`, items);
      at = found + 1;
      gap = anywhere;
    }
    if (at < real.length && !anywhere && shown.at(-1) !== ELIDED) return [`${path}: the answer has ${real.length - at} more items`];
    return [];
  }
  if (typeOf(shown) === 'object' && typeOf(real) === 'object') {
    const s = shown as Record<string, unknown>;
    const r = real as Record<string, unknown>;
    const found: string[] = [];
    for (const key of Object.keys(s)) {
      if (key === ELIDED) continue;
      if (!(key in r)) found.push(`${path}.${key}: not in the answer`);
      else if (VARYING_KEYS.has(key)) {
        if (typeOf(s[key]) !== typeOf(r[key])) found.push(`${path}.${key}: a ${typeOf(r[key])} in the answer, a ${typeOf(s[key])} here`);
      } else found.push(...differences(s[key], r[key], `${path}.${key}`, items));
    }
    if (!(ELIDED in s))
      for (const key of Object.keys(r)) if (!(key in s)) found.push(`${path}.${key}: in the answer, not shown (${JSON.stringify(r[key]).slice(0, 80)})`);
    return found;
  }
  return Object.is(shown, real) ? [] : [`${path}: shows ${JSON.stringify(shown)}, the answer has ${JSON.stringify(real)}`];
}

/**
 * An answer as the docs print it, ready to paste: two-space indents, and every object or array that fits in
 * 160 columns on one line (`{ "a": 1, "b": 2 }`).
 */
export function docJson(value: unknown, indent = '', prefix = 0): string {
  const inline = JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ').replace(/\[ /g, '[').replace(/ \]/g, ']');
  if (value === null || typeof value !== 'object' || indent.length + prefix + inline.length <= 160) return inline;
  const inner = `${indent}  `;
  const parts = Array.isArray(value)
    ? value.map((item) => `${inner}${docJson(item, inner)}`)
    : Object.entries(value).map(([key, item]) => `${inner}${JSON.stringify(key)}: ${docJson(item, inner, key.length + 4)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${parts.join(',\n')}\n${indent}${close}`;
}
