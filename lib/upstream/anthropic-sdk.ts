/**
 * The Anthropic SDK as a module of its own, so a Lambda bundle can keep it beside the handler and load it
 * with the first message (./anthropic.ts, docs/deployment.md#side-bundles): 0.4 MiB that a cold start of
 * the MCP function would otherwise parse for the one tool that reads a card.
 */
export { default } from '@anthropic-ai/sdk';
