/**
 * Per-client rate limits for the local server (`RATE_LIMITS=clientId=N/s,…`), standing in for the
 * usage plans API Gateway applies in AWS: a token bucket per client that holds N requests and
 * refills at N per second. Over the limit the caller gets the gateway's 429 with a Retry-After.
 */

export type RateLimits = Map<string, number>;

/** Parses `acme=50/s,local=5/s`; throws on anything else so a typo does not silently disable a limit. */
export function parseRateLimits(text: string | undefined): RateLimits {
  const limits: RateLimits = new Map();
  for (const part of (text ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^([A-Za-z0-9._-]{1,80})=(\d+(?:\.\d+)?)\/s$/.exec(part);
    const rate = match ? Number(match[2]) : NaN;
    if (!match || !(rate > 0)) throw new Error(`RATE_LIMITS entry "${part}" must look like clientId=N/s with N > 0`);
    limits.set(match[1]!, rate);
  }
  return limits;
}

export interface RateLimiter {
  /** undefined when the request may go on; otherwise the whole seconds to wait. */
  take(clientId: string): number | undefined;
}

export function rateLimiter(limits: RateLimits, now: () => number = () => performance.now()): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(clientId) {
      const rate = limits.get(clientId);
      if (rate === undefined) return undefined;
      const capacity = Math.max(1, rate);
      const t = now();
      const bucket = buckets.get(clientId) ?? { tokens: capacity, at: t };
      bucket.tokens = Math.min(capacity, bucket.tokens + ((t - bucket.at) / 1000) * rate);
      bucket.at = t;
      buckets.set(clientId, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return undefined;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / rate));
    },
  };
}
