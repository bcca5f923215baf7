import { AsyncLocalStorage } from 'node:async_hooks';
import { TestEnvironment } from 'jest-environment-node';

/**
 * Jest's Node environment, plus one chore (docs/testing.md#async-context) and a Map kept for the process (below). Jest evaluates every module
 * afresh for each test file, so each file makes its own AsyncLocalStorage: lib/logging's request scope,
 * and jest-circus's own test context. Node keeps every storage that has ever been entered and, on every
 * promise and every other async resource the process creates, copies each one's value onto it. A worker
 * that has run fifty files therefore pays fifty copies per `await` in every later file. When a file's
 * tests are done (this teardown runs after the last of them and their hooks), the storages that file
 * entered are disabled, so each file pays for its own only.
 */
const ENTERED = Symbol.for('eligibility-service.test.enteredStorages');

/**
 * One Map per worker process, the same for every file it runs (this module is loaded once per process, where
 * every test file's own modules are evaluated afresh): each file's global holds it under this key, for a
 * resource started once and used by every later file (test/support/local-environment.ts keeps the dynalite
 * thread there). Only Node's own objects belong in it, never a function made by a file's code, which would
 * outlive that file's module registry.
 */
const PROCESS_WIDE = new Map();
const PROCESS_WIDE_KEY = Symbol.for('eligibility-service.test.processWide');

/** Records every storage entered in this worker (once per worker: the class is Node's, shared by all files). */
function trackEnteredStorages() {
  if (AsyncLocalStorage[ENTERED]) return AsyncLocalStorage[ENTERED];
  const entered = new Set();
  for (const method of ['run', 'enterWith']) {
    const original = AsyncLocalStorage.prototype[method];
    AsyncLocalStorage.prototype[method] = function (...args) {
      entered.add(this);
      return original.apply(this, args);
    };
  }
  AsyncLocalStorage[ENTERED] = entered;
  return entered;
}

export default class Environment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.global[PROCESS_WIDE_KEY] = PROCESS_WIDE;
  }

  async teardown() {
    await super.teardown();
    const entered = trackEnteredStorages();
    for (const storage of entered) storage.disable();
    entered.clear();
  }
}

trackEnteredStorages();
