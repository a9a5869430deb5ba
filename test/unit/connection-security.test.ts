import { describe, expect, it } from "vitest";
import { isHttpsRequest, isUnencryptedRemote, wantsSecureCookies } from "@/lib/auth/connection-security";

const headers = (h: Record<string, string>) => new Headers(h);

describe("isUnencryptedRemote: when the banner shows", () => {
  it.each<{ h: Record<string, string>; shown: boolean }>([
    { h: { host: "baton.test:3000", "x-forwarded-proto": "http" }, shown: true },
    { h: { host: "192.168.1.20:3000", "x-forwarded-proto": "http" }, shown: true },
    { h: { host: "[fd00::5]:3000", "x-forwarded-proto": "http" }, shown: true },
    { h: { host: "localhost:3000", "x-forwarded-proto": "http" }, shown: false },
    { h: { host: "127.0.0.1:3000", "x-forwarded-proto": "http" }, shown: false },
    { h: { host: "[::1]:3000", "x-forwarded-proto": "http" }, shown: false },
    { h: { host: "baton.test", "x-forwarded-proto": "https" }, shown: false },
    { h: { host: "127.0.0.1:3000", "x-forwarded-host": "baton.example.com", "x-forwarded-proto": "http" }, shown: true },
    { h: { host: "127.0.0.1:3000", "x-forwarded-host": "baton.example.com", "x-forwarded-proto": "https" }, shown: false },
    { h: { "x-forwarded-proto": "http" }, shown: false },
  ])("$h → $shown", ({ h, shown }) => {
    expect(isUnencryptedRemote(headers(h))).toBe(shown);
  });
});

describe("wantsSecureCookies", () => {
  it.each([
    { proto: "http", base: undefined, secure: false },
    { proto: "https", base: undefined, secure: true },
    { proto: "http, https", base: undefined, secure: true },
    { proto: "HTTPS", base: undefined, secure: true },
    { proto: "http", base: "https://baton.example.com", secure: true },
    { proto: "http", base: "http://10.0.0.5:3000", secure: false },
    { proto: "https", base: "http://10.0.0.5:3000", secure: true },
  ])("X-Forwarded-Proto $proto, BATON_BASE_URL $base → $secure", ({ proto, base, secure }) => {
    expect(wantsSecureCookies(headers({ "x-forwarded-proto": proto }), base)).toBe(secure);
  });

  it("no X-Forwarded-Proto at all is not HTTPS", () => {
    expect(isHttpsRequest(headers({}))).toBe(false);
  });
});
