/**
 * `import.meta.sideBundles` is `true` in a Lambda bundle (esbuild's `define`, infra/deploy/functions.ts
 * BUNDLING) and absent in source (tsx, Jest). Code that only some requests need is imported from a
 * bundle of its own beside the handler when it is set, and as the module itself otherwise
 * (docs/deployment.md#side-bundles).
 */
interface ImportMeta {
  readonly sideBundles?: true;
}
