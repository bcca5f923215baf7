/**
 * A bounded cache with expiry, least recently used out first (docs/security.md#local-server): the
 * local server's authorizer cache, so a flood of distinct tokens cannot grow it without limit.
 * A Map keeps insertion order; reading an entry moves it to the back.
 */
export class TtlLru<V> {
  private readonly entries = new Map<string, { expires: number; value: V }>();

  constructor(
    readonly maxEntries: number,
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expires <= this.now()) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    if (this.ttlMs <= 0 || this.maxEntries <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { expires: this.now() + this.ttlMs, value });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
