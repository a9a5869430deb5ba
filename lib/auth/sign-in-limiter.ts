/**
 * Slows password guessing: after MAX_FAILURES failed sign-ins for one email (from anywhere) within
 * WINDOW_MS, further attempts are refused until the window has passed. Kept in memory: per instance,
 * forgotten on restart; enough to make guessing a password over the network impractical.
 */
export const MAX_FAILURES = 10;
export const WINDOW_MS = 15 * 60_000;

type Entry = { failures: number[] };

export class SignInLimiter {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxFailures = MAX_FAILURES,
    private readonly windowMs = WINDOW_MS,
  ) {}

  /** Milliseconds until another attempt is allowed, or 0. */
  retryAfter(email: string, now = Date.now()): number {
    const entry = this.entries.get(email.toLowerCase());
    if (!entry) return 0;
    entry.failures = entry.failures.filter((t) => now - t < this.windowMs);
    if (entry.failures.length < this.maxFailures) return 0;
    return entry.failures[0]! + this.windowMs - now;
  }

  recordFailure(email: string, now = Date.now()): void {
    const key = email.toLowerCase();
    const entry = this.entries.get(key) ?? { failures: [] };
    entry.failures.push(now);
    this.entries.set(key, entry);
    if (this.entries.size > 10_000) this.entries.delete(this.entries.keys().next().value!);
  }

  recordSuccess(email: string): void {
    this.entries.delete(email.toLowerCase());
  }
}

const holder = globalThis as unknown as { __batonSignInLimiter?: SignInLimiter };
export const signInLimiter = (holder.__batonSignInLimiter ??= new SignInLimiter());
