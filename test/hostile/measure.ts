/**
 * Time and memory around one hostile call. Memory growth is the larger of the resident-set change
 * and the rise of the process's peak RSS (which catches a spike that was freed before the call
 * returned). Bounds in the tests are generous: the machine running them is shared and loaded.
 */
export interface Cost<T> {
  result: T;
  ms: number;
  growthMiB: number;
}

const peakRssBytes = () => process.resourceUsage().maxRSS * 1024;

export async function measureCall<T>(call: () => Promise<T>): Promise<Cost<T>> {
  const rssBefore = process.memoryUsage().rss;
  const peakBefore = peakRssBytes();
  const started = performance.now();
  const result = await call();
  const ms = performance.now() - started;
  const growth = Math.max(process.memoryUsage().rss - rssBefore, peakRssBytes() - Math.max(peakBefore, rssBefore));
  return { result, ms, growthMiB: growth / 1024 / 1024 };
}
