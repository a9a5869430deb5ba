import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BATON_VERSION, batonVersion, servedCliDir, servedCliMismatch } from "@/lib/baton-version";
import { keepServedCli } from "@/lib/distribution/cli-bundle";
import { version } from "@/package.json";
import { tempDir } from "../support/server";

// The version a server names is its build's; the CLI it hands out is read from cli/dist as it is served.
// A CLI rebuilt after the server (npm run build:cli alone) names another version: said at start.

const tmp = tempDir("baton-version-");
afterAll(() => tmp.remove());

const checkout = (built: string | null) => {
  const root = path.join(tmp.dir, built ?? "none");
  mkdirSync(path.join(root, "cli", "dist"), { recursive: true });
  if (built) writeFileSync(path.join(root, "cli", "dist", "version.json"), JSON.stringify({ version: built }));
  return root;
};

describe("the server's version and the CLI it hands out", () => {
  it("is package.json's and the CLI build's hash; package.json's alone with no CLI built", () => {
    expect(batonVersion(checkout(`${version}+0123456789`))).toBe(`${version}+0123456789`);
    expect(batonVersion(checkout(null))).toBe(version);
    // Another release's file is not taken for this one's.
    expect(batonVersion(checkout("9.9.9+0123456789"))).toBe(version);
  });

  it("a CLI built after the server is named at start, with what to do; the same one says nothing", () => {
    expect(servedCliMismatch(checkout(BATON_VERSION))).toBeNull();
    expect(servedCliMismatch(checkout(`${version}+ffffffffff`))).toBe(
      `the CLI it hands out (cli/dist) is ${version}+ffffffffff, this server was built with ${BATON_VERSION}: run \`npm run build\` and start the server again`,
    );
  });

  it("the CLI handed out is the one the checkout held at the server's first start: a CLI rebuilt later is not", () => {
    const root = checkout(`${version}+aaaaaaaaaa`);
    writeFileSync(path.join(root, "cli", "dist", "baton.mjs"), "// the CLI a at the start\n");
    writeFileSync(path.join(root, "cli", "dist", "opencode-plugin.js"), "// plugin a\n");
    expect(servedCliDir(root)).toBe(path.join(root, "cli", "dist"));
    keepServedCli(root);
    const served = servedCliDir(root);
    expect(served).toBe(path.join(root, ".next", "baton-cli"));
    // npm install rebuilds cli/dist while the server runs, and again before it restarts.
    writeFileSync(path.join(root, "cli", "dist", "baton.mjs"), "// the CLI b\n");
    writeFileSync(path.join(root, "cli", "dist", "version.json"), JSON.stringify({ version: `${version}+bbbbbbbbbb` }));
    keepServedCli(root);
    expect(readFileSync(path.join(servedCliDir(root), "baton.mjs"), "utf8")).toBe("// the CLI a at the start\n");
    expect(batonVersion(root, served)).toBe(`${version}+aaaaaaaaaa`);
  });
});
