import { describe, expect, it } from "vitest";
import { MAX_NAMED_FILES, namedFiles, pathOf } from "../../lib/learnings/named-files";

describe("namedFiles: the files a learning's text names", () => {
  it("finds paths in realistic sentences", () => {
    expect(namedFiles("Run the migrations through lib/db/migrate.ts, never by hand.")).toEqual(["lib/db/migrate.ts"]);
    expect(namedFiles("Use `./scripts/release.sh` to cut a release (it tags first).")).toEqual(["scripts/release.sh"]);
    expect(namedFiles("The Makefile's `check` target runs eslint; see package.json and .env.example.")).toEqual(["Makefile", "package.json", ".env.example"]);
    expect(namedFiles("Errors point at src/server/routes.ts:42:7 — the handler is there.")).toEqual(["src/server/routes.ts"]);
    expect(namedFiles("See [the config](config/app.yaml) and (cli/src/hooks/hook-log.ts).")).toEqual(["config/app.yaml", "cli/src/hooks/hook-log.ts"]);
    expect(namedFiles("CI lives in .github/workflows/ci.yml")).toEqual([".github/workflows/ci.yml"]);
    expect(namedFiles("Keep ../shared/SPEC.md in sync")).toEqual(["../shared/SPEC.md"]);
    expect(namedFiles("The fixtures are under ./test/fixtures")).toEqual(["test/fixtures"]);
  });

  it("does not count URLs, versions, abbreviations, dates, products or prose slashes", () => {
    const prose = [
      "Pin Next.js to v16.4.1 (see https://nextjs.org/docs/app/api-reference/config.html), e.g. in CI.",
      "Node.js 20.20 and npm 11.19 work; i.e. no upgrade before 2026-11-26 or 11/26/2026.",
      "Reads and/or writes go over TCP/IP; the I/O is async, etc.",
      "Mail ann@example.com about the 1.5x speed-up and the 3.5 release.",
      "Call window.location or process.env in the browser code, vs. the server.",
      "Globs like src/**/*.ts and templates like ${HOME}/x.ts are not files; neither is ~/.bashrc nor C:\\x\\y.ts.",
      "Use www.example.com/page.html and ftp://host/file.txt sparingly.",
    ];
    for (const sentence of prose) expect(namedFiles(sentence), sentence).toEqual([]);
  });

  it("keeps each file once, and at most MAX_NAMED_FILES", () => {
    expect(namedFiles("a/x.ts then a/x.ts again", "and ./a/x.ts")).toEqual(["a/x.ts"]);
    const many = Array.from({ length: 40 }, (_, i) => `src/f${i}.ts`).join(" ");
    expect(namedFiles(many)).toHaveLength(MAX_NAMED_FILES);
  });

  it("reads single words as paths or not", () => {
    expect(pathOf("`README.md`,")).toBe("README.md");
    expect(pathOf("/etc/hosts.conf")).toBe("/etc/hosts.conf");
    expect(pathOf("v1.2.3")).toBeNull();
    expect(pathOf("e.g.")).toBeNull();
    expect(pathOf("Vue.js")).toBeNull();
    expect(pathOf("end.")).toBeNull();
  });
});
