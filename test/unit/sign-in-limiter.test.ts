import { describe, expect, it } from "vitest";
import { clientKey, FailureWindow, MAX_FAILURES, MAX_KEYS, SignInLimiter } from "@/lib/auth/sign-in-limiter";

const from = (client: string) => (email: string) => ({ email, client });
const home = from("203.0.113.7");

describe("SignInLimiter", () => {
  it("refuses after the allowed failures, for the rest of the window, per email", () => {
    const limiter = new SignInLimiter({ maxFailures: 3, windowMs: 60_000 });
    for (let i = 0; i < 3; i++) {
      expect(limiter.refusal(home("Ana@Example.com"), 1000 + i)).toBeNull();
      limiter.recordFailure(home("ana@example.com"), 1000 + i);
    }
    expect(limiter.refusal(home("ana@example.com"), 2000)).toEqual({ reason: "email", waitMs: 59_000 });
    // From anywhere: the email is what is locked.
    expect(limiter.refusal(from("198.51.100.1")("ana@example.com"), 2000)).toEqual({ reason: "email", waitMs: 59_000 });
    expect(limiter.refusal(home("bo@example.com"), 2000)).toBeNull();
    expect(limiter.refusal(home("ana@example.com"), 61_001)).toBeNull();
  });

  it("forgets an email's failures after a success, not the client's", () => {
    const limiter = new SignInLimiter({ maxFailures: 2, maxClientFailures: 3, windowMs: 60_000 });
    limiter.recordFailure(home("a@x.co"), 0);
    limiter.recordFailure(home("b@x.co"), 0);
    limiter.recordSuccess(home("a@x.co"));
    limiter.recordFailure(home("a@x.co"), 1);
    expect(limiter.refusal(from("198.51.100.1")("a@x.co"), 2)).toBeNull();
    // Three failures from one address, whichever emails, and a good password in between.
    expect(limiter.refusal(home("c@x.co"), 2)).toEqual({ reason: "client", waitMs: 59_998 });
  });

  it("refuses a client that fails for many emails, per address (an IPv6 /64 is one client)", () => {
    const limiter = new SignInLimiter({ maxClientFailures: 5, windowMs: 60_000 });
    for (let i = 0; i < 5; i++) limiter.recordFailure(from(`2001:db8:1:2::${i + 1}`)(`made-up-${i}@example.com`), 0);
    expect(limiter.refusal(from("2001:db8:1:2:ffff::9")("ana@example.com"), 1)?.reason).toBe("client");
    expect(limiter.refusal(from("2001:db8:1:3::1")("ana@example.com"), 1)).toBeNull();
  });

  it("the flush attack fails: 30,000 made-up emails from 3,000 addresses do not unlock a locked email, and memory stays bounded", () => {
    const limiter = new SignInLimiter();
    for (let i = 0; i < MAX_FAILURES; i++) limiter.recordFailure(home("ana@example.com"), 1000);
    expect(limiter.refusal(home("ana@example.com"), 1001)?.reason).toBe("email");
    // Each address stays under its own limit, so every one of these failures is counted.
    for (let i = 0; i < 30_000; i++) limiter.recordFailure(from(`10.${(i / 10) >> 8}.${(i / 10) & 255}.1`)(`made-up-${i}@example.com`), 2000 + i);
    expect(limiter.refusal(from("192.0.2.1")("ana@example.com"), 40_000)).toMatchObject({ reason: "email" });
    expect(limiter.sizes.emails).toBeLessThanOrEqual(MAX_KEYS + 1);
    expect(limiter.sizes.clients).toBeLessThanOrEqual(MAX_KEYS + 1);
  });
});

describe("FailureWindow", () => {
  it("when full, forgets unlocked keys that failed longest ago; with every key locked, a newcomer is not kept", () => {
    const table = new FailureWindow(2, 60_000, 3);
    for (const key of ["a", "b", "a", "b"]) table.record(key, 0);
    table.record("c", 1);
    table.record("d", 2);
    expect(table.size).toBe(3);
    expect([table.retryAfter("a", 3), table.retryAfter("b", 3)]).toEqual([59_997, 59_997]);
    expect(table.retryAfter("c", 3)).toBe(0);
    table.record("d", 3);
    table.record("e", 4);
    expect(table.size).toBe(3);
    expect(["a", "b", "d"].map((key) => table.retryAfter(key, 5) > 0)).toEqual([true, true, true]);
    // Once the locks end, their keys may go.
    table.record("f", 60_001);
    expect(table.size).toBeLessThanOrEqual(3);
    expect(table.retryAfter("f", 60_001)).toBe(0);
  });
});

describe("clientKey", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
  ])("%s → %s", (address, key) => {
    expect(clientKey(address)).toBe(key);
  });
});
