import { ApiError } from "../api/errors";
import { processWide } from "../process/process-state";

/**
 * Slows password guessing, two ways at once: after MAX_FAILURES failed sign-ins for one email (from
 * anywhere), or MAX_CLIENT_FAILURES from one client (for any emails), within WINDOW_MS, further
 * attempts are refused until the window has passed. The per-client count is what stops an attacker
 * from pushing a locked email out of a full table with made-up ones; and a full table never forgets a
 * locked entry (see FailureWindow). Kept in memory: per instance, forgotten on restart; enough to make
 * guessing a password over the network impractical.
 */
export const MAX_FAILURES = 10;
/** Far above what the people behind one address mistype, far below the table a flush would need. */
export const MAX_CLIENT_FAILURES = 100;
export const WINDOW_MS = 15 * 60_000;
/** Emails (or clients) remembered at once: a bound on memory whatever an attacker sends. */
export const MAX_KEYS = 10_000;

/**
 * Failure times per key (the latest `max` of them, oldest first), for at most `maxKeys` keys. When the
 * table is full, the keys that failed longest ago and are not locked are forgotten: forgetting one
 * loses fewer than `max` failures, never a lock. With every key locked, a new key is forgotten at once,
 * so the table cannot grow past `maxKeys` + 1.
 */
export class FailureWindow {
  /** In the order of each key's latest failure, oldest first. */
  private readonly entries = new Map<string, number[]>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly maxKeys = MAX_KEYS,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Milliseconds until the key may fail again, or 0. */
  retryAfter(key: string, now: number): number {
    const failures = this.recent(key, now);
    return failures.length < this.max ? 0 : failures[0]! + this.windowMs - now;
  }

  record(key: string, now: number): void {
    const failures = [...this.recent(key, now), now].slice(-this.max);
    // Set again at the end: the map stays ordered by latest failure.
    this.entries.delete(key);
    this.entries.set(key, failures);
    if (this.entries.size > this.maxKeys) this.forgetUnlocked(now);
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  private recent(key: string, now: number): number[] {
    const failures = (this.entries.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (!failures.length) this.entries.delete(key);
    return failures;
  }

  private forgetUnlocked(now: number): void {
    for (const [key, failures] of this.entries) {
      if (this.entries.size <= this.maxKeys) return;
      const locked = failures.length >= this.max && now - failures[0]! < this.windowMs;
      if (!locked) this.entries.delete(key);
    }
  }
}

/** Who is signing in: the email typed, and the address it came from (see clientAddress). */
export type SignInAttempt = { email: string; client: string };

export class SignInLimiter {
  private readonly emails: FailureWindow;
  private readonly clients: FailureWindow;

  constructor(options: { maxFailures?: number; maxClientFailures?: number; windowMs?: number; maxKeys?: number } = {}) {
    const windowMs = options.windowMs ?? WINDOW_MS;
    this.emails = new FailureWindow(options.maxFailures ?? MAX_FAILURES, windowMs, options.maxKeys);
    this.clients = new FailureWindow(options.maxClientFailures ?? MAX_CLIENT_FAILURES, windowMs, options.maxKeys);
  }

  /** Why the attempt must wait, and for how many milliseconds; null when it may go ahead. */
  refusal(attempt: SignInAttempt, now = Date.now()): { reason: "email" | "client"; waitMs: number } | null {
    const email = this.emails.retryAfter(emailKey(attempt.email), now);
    if (email > 0) return { reason: "email", waitMs: email };
    const client = this.clients.retryAfter(clientKey(attempt.client), now);
    return client > 0 ? { reason: "client", waitMs: client } : null;
  }

  recordFailure(attempt: SignInAttempt, now = Date.now()): void {
    this.emails.record(emailKey(attempt.email), now);
    this.clients.record(clientKey(attempt.client), now);
  }

  /** The email's count starts again; the client's does not (one good password must not buy more guesses). */
  recordSuccess(attempt: SignInAttempt): void {
    this.forgetEmail(attempt.email);
  }

  /** The email's failures forgotten: its password was just proven, or set anew by a reset link. */
  forgetEmail(email: string): void {
    this.emails.forget(emailKey(email));
  }

  /** How many emails and clients are remembered (for tests of the memory bound). */
  get sizes(): { emails: number; clients: number } {
    return { emails: this.emails.size, clients: this.clients.size };
  }
}

function emailKey(email: string): string {
  return email.toLowerCase();
}

/**
 * One client as counted: an IPv4 address (also written IPv4-mapped), or an IPv6 /64, the block one
 * site is given (an attacker holds every address in it).
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(":")) return address;
  const bare = address.replace(/%.*$/, "").toLowerCase();
  const [head = "", tail] = bare.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

export const signInLimiter = processWide("sign-in limiter", () => new SignInLimiter());

/**
 * A password typed for an account, checked under the limiter, wherever it is typed (sign-in, changing
 * one's password): refused while that email or the client has failed too often, a wrong one counted
 * (`wrong` tells it from other errors, and says what to answer), a right one clears the email's count.
 */
export async function checkPasswordLimited(attempt: SignInAttempt, check: () => Promise<void>, wrong: (error: unknown) => ApiError | null): Promise<void> {
  const refusal = signInLimiter.refusal(attempt);
  if (refusal) {
    const from = refusal.reason === "email" ? "for this email" : "from this address";
    throw new ApiError("rate_limited", `Too many failed password attempts ${from}. Try again in ${Math.ceil(refusal.waitMs / 60_000)} min.`);
  }
  try {
    await check();
  } catch (error) {
    const answer = wrong(error);
    if (!answer) throw error;
    signInLimiter.recordFailure(attempt);
    throw answer;
  }
  signInLimiter.recordSuccess(attempt);
}
