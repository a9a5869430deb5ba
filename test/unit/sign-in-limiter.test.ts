import { describe, expect, it } from "vitest";
import { SignInLimiter } from "@/lib/auth/sign-in-limiter";

describe("SignInLimiter", () => {
  it("refuses after the allowed failures, for the rest of the window, per email", () => {
    const limiter = new SignInLimiter(3, 60_000);
    for (let i = 0; i < 3; i++) {
      expect(limiter.retryAfter("Ana@Example.com", 1000 + i)).toBe(0);
      limiter.recordFailure("ana@example.com", 1000 + i);
    }
    expect(limiter.retryAfter("ana@example.com", 2000)).toBe(59_000);
    expect(limiter.retryAfter("bo@example.com", 2000)).toBe(0);
    expect(limiter.retryAfter("ana@example.com", 61_001)).toBe(0);
  });

  it("forgets failures after a success", () => {
    const limiter = new SignInLimiter(2, 60_000);
    limiter.recordFailure("a@x.co", 0);
    limiter.recordSuccess("a@x.co");
    limiter.recordFailure("a@x.co", 1);
    expect(limiter.retryAfter("a@x.co", 2)).toBe(0);
  });
});
