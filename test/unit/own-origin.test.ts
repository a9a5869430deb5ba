import { describe, expect, it } from "vitest";
import { isOwnOrigin } from "@/lib/auth/own-origin";

const request = (host: string, forwarded?: string) =>
  new Request("http://internal/api/x", { headers: { host, ...(forwarded ? { "x-forwarded-host": forwarded } : {}) } });

describe("isOwnOrigin", () => {
  it.each([
    { origin: "http://localhost:3000", host: "localhost:3000", base: undefined, own: true },
    { origin: "http://localhost:3001", host: "localhost:3000", base: undefined, own: false },
    { origin: "https://evil.example", host: "localhost:3000", base: undefined, own: false },
    { origin: "https://baton.example.com", host: "10.0.0.5:3000", base: "https://baton.example.com", own: true },
    { origin: "https://baton.example.com", host: "10.0.0.5:3000", base: undefined, own: false },
    { origin: "null", host: "localhost:3000", base: undefined, own: false },
    { origin: "garbage", host: "localhost:3000", base: undefined, own: false },
    { origin: "http://", host: "localhost:3000", base: undefined, own: false },
  ])("$origin to $host (base $base) → $own", ({ origin, host, base, own }) => {
    expect(isOwnOrigin(request(host), origin, base)).toBe(own);
  });

  it("trusts the forwarded host a proxy sets: the first, where proxies appended theirs", () => {
    expect(isOwnOrigin(request("127.0.0.1:3000", "baton.example.com"), "https://baton.example.com", undefined)).toBe(true);
    expect(isOwnOrigin(request("127.0.0.1:3000", "baton.example.com, internal:3440"), "https://baton.example.com", undefined)).toBe(true);
    expect(isOwnOrigin(request("127.0.0.1:3000", "baton.example.com, internal:3440"), "http://internal:3440", undefined)).toBe(false);
  });
});

describe("originFromHeaders", async () => {
  const { originFromHeaders } = await import("@/lib/api/origin-from-headers");
  it.each([
    { headers: { host: "127.0.0.1:3000" }, base: undefined, origin: "http://127.0.0.1:3000" },
    { headers: { host: "10.0.0.5:3000", "x-forwarded-host": "baton.example.com", "x-forwarded-proto": "https" }, base: undefined, origin: "https://baton.example.com" },
    { headers: { host: "10.0.0.5:3000" }, base: "https://baton.example.com", origin: "https://baton.example.com" },
    // Apache's mod_proxy appends to what an earlier proxy sent: the first entry is the browser's.
    { headers: { host: "10.0.0.5:3000", "x-forwarded-host": " baton.example.com , internal:3440", "x-forwarded-proto": "https, http" }, base: undefined, origin: "https://baton.example.com" },
    { headers: { host: "10.0.0.5:3000", "x-forwarded-host": ", internal:3440" }, base: undefined, origin: "http://10.0.0.5:3000" },
  ])("$headers → $origin", ({ headers, base, origin }) => {
    expect(originFromHeaders(new Headers(headers as Record<string, string>), base)).toBe(origin);
  });
});
