/** Shape checks for JSON read from an upstream (or sent to a sandbox): untyped until checked. */

export type JsonObject = Record<string, unknown>;

/** A JSON object: not null, not an array. */
export const isJsonObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
