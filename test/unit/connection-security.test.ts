import { describe, expect, it } from "vitest";
import { clientAddress, isHttpsRequest, isLoopbackDirect, isUnencryptedRemote, stampConnection, wantsSecureCookies } from "@/lib/auth/connection-security";

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

describe("stampConnection, isLoopbackDirect and clientAddress", () => {
  /** Headers as a route sees them after the HTTP server stamped the raw request. */
  const stamped = (raw: Record<string, string>, remoteAddress: string) => {
    const req = { headers: { ...raw } as Record<string, string | string[] | undefined>, socket: { remoteAddress } };
    stampConnection(req);
    // Next.js fills in X-Forwarded-* afterwards when the client sent none.
    req.headers["x-forwarded-for"] ??= remoteAddress;
    req.headers["x-forwarded-proto"] ??= "http";
    return new Headers(req.headers as Record<string, string>);
  };

  it.each<{ raw: Record<string, string>; peer: string; direct: boolean }>([
    { raw: { host: "127.0.0.1:3000" }, peer: "127.0.0.1", direct: true },
    { raw: { host: "localhost:3000" }, peer: "::1", direct: true },
    { raw: { host: "LOCALHOST" }, peer: "::ffff:127.0.0.1", direct: true },
    { raw: { host: "[::1]:3000" }, peer: "::1", direct: true },
    { raw: { host: "evil.example:3000" }, peer: "127.0.0.1", direct: false },
    { raw: { host: "localhost.evil.example" }, peer: "127.0.0.1", direct: false },
    { raw: { host: "localhost:3000@evil.example" }, peer: "127.0.0.1", direct: false },
    { raw: { host: "192.168.1.20:3000" }, peer: "127.0.0.1", direct: false },
    { raw: { host: "127.0.0.1:3000" }, peer: "192.168.1.30", direct: false },
    { raw: { host: "127.0.0.1:3000", "x-forwarded-for": "203.0.113.7" }, peer: "127.0.0.1", direct: false },
    { raw: { host: "127.0.0.1:3000", forwarded: "for=203.0.113.7" }, peer: "127.0.0.1", direct: false },
    { raw: { host: "127.0.0.1:3000", "x-forwarded-host": "localhost" }, peer: "127.0.0.1", direct: false },
    { raw: { host: "127.0.0.1:3000", "x-real-ip": "203.0.113.7" }, peer: "127.0.0.1", direct: false },
    { raw: { host: "127.0.0.1:3000", "x-baton-peer-address": "127.0.0.1" }, peer: "192.168.1.30", direct: false },
    { raw: { host: "evil.example", "x-baton-forwarded": "" }, peer: "127.0.0.1", direct: false },
    { raw: {}, peer: "127.0.0.1", direct: false },
  ])("$raw from $peer → direct $direct", ({ raw, peer, direct }) => {
    expect(isLoopbackDirect(stamped(raw, peer))).toBe(direct);
  });

  it("a client's X-Forwarded-For counts only behind a trusted proxy, and then its last hop", () => {
    const h = stamped({ host: "baton.test", "x-forwarded-for": "198.51.100.9, 203.0.113.7" }, "10.0.0.2");
    expect(clientAddress(h, false)).toBe("10.0.0.2");
    expect(clientAddress(h, true)).toBe("203.0.113.7");
    expect(clientAddress(stamped({ host: "baton.test" }, "10.0.0.2"), true)).toBe("10.0.0.2");
  });
});
