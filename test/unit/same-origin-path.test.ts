import { describe, expect, it } from "vitest";
import { sameOriginPath } from "@/lib/auth/same-origin-path";

const ORIGIN = "http://127.0.0.1:3000";

describe("sameOriginPath: where sign-in sends the browser back to", () => {
  it.each([
    ["/learnings?kind=pattern#top", "/learnings?kind=pattern#top"],
    ["/projects/alpha", "/projects/alpha"],
    ["learnings", "/learnings"],
    ["http://127.0.0.1:3000/proposals", "/proposals"],
    ["/%09/evil.example", "/%09/evil.example"],
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
  ])("%s stays as %s", (next, path) => {
    expect(sameOriginPath(next, ORIGIN)).toBe(path);
  });

  it.each([
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    " //evil.example",
    "\\/evil.example",
    "https://evil.example/",
    "http://127.0.0.1:3001/",
    "https://127.0.0.1:3000/",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "/.//evil.example",
    "/..//evil.example",
    "",
    undefined,
    null,
  ])("%j never leaves the origin", (next) => {
    const path = sameOriginPath(next, ORIGIN);
    expect(new URL(path, "https://browser.test").origin).toBe("https://browser.test");
    expect(path.startsWith("//")).toBe(false);
  });

  it("answers / when the origin itself cannot be read", () => {
    expect(sameOriginPath("/learnings", "not a url")).toBe("/");
  });
});
