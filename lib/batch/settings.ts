import type { Env } from '../config/index.js';
import { DEFAULT_BATCH_SETTINGS, type BatchSettings } from './types.js';

const MIN_LEASE_SECONDS = 1;

/** BATCH_* settings (docs/batch.md#limits): whole positive numbers override the defaults. */
export function batchSettings(env: Env): BatchSettings {
  const positive = (value: string | undefined, fallback: number) => {
    const n = Number(value?.trim() || Number.NaN);
    return Number.isFinite(n) && n > 0 ? n : fallback;
  };
  return {
    ...DEFAULT_BATCH_SETTINGS,
    maxPendingItems: Math.floor(positive(env.BATCH_MAX_PENDING_ITEMS, DEFAULT_BATCH_SETTINGS.maxPendingItems)),
    retryHours: positive(env.BATCH_RETRY_HOURS, DEFAULT_BATCH_SETTINGS.retryHours),
    // At least a second: a shorter lease would let a redelivery take over an item whose call is still running.
    leaseMs: Math.round(Math.max(MIN_LEASE_SECONDS, positive(env.BATCH_LEASE_SECONDS, DEFAULT_BATCH_SETTINGS.leaseMs / 1000)) * 1000),
  };
}
