/**
 * Construct ids from kebab-case names (`not-found` → `NotFound`). They become logical ids, which
 * must never change for a deployed resource (test/infra/stack.test.ts).
 */
export const pascal = (name: string) =>
  name
    .split('-')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
