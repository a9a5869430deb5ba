import { describe, expect, it } from "vitest";
import { newNonce, pagePolicy } from "../../lib/security-headers";

const directive = (policy: string, name: string) => policy.split("; ").find((d) => d.split(" ")[0] === name);

describe("pagePolicy", () => {
  it.each([
    ["a production server", false, "script-src 'self' 'nonce-N' 'strict-dynamic'", "style-src 'self' 'nonce-N'"],
    // next dev rebuilds error stacks with eval and injects styles without a nonce.
    ["next dev", true, "script-src 'self' 'nonce-N' 'strict-dynamic' 'unsafe-eval'", "style-src 'self' 'unsafe-inline'"],
  ])("%s: scripts and styles", (_, development, scripts, styles) => {
    const policy = pagePolicy("N", development);
    expect(directive(policy, "script-src")).toBe(scripts);
    expect(directive(policy, "style-src")).toBe(styles);
    expect(directive(policy, "frame-ancestors")).toBe("frame-ancestors 'none'");
  });

  it("never upgrades requests: teams reach Baton over plain HTTP on their network", () => {
    expect(pagePolicy("N", false)).not.toContain("upgrade-insecure-requests");
  });
});

describe("newNonce", () => {
  it("is 128 random bits in base64, different every time", () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});
