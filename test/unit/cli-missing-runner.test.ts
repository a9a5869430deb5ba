import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { missingRunner } from "@/cli/src/commands/missing-runner";
import { tempDir } from "../support/server";

// `baton doctor`'s check that installed hooks can run: only what is surely missing is named.

const tmp = tempDir("baton-missing-runner-");
afterAll(() => tmp.remove());
const script = path.join(tmp.dir, "my checkout", "cli", "bin", "baton.mjs");
mkdirSync(path.dirname(script), { recursive: true });
writeFileSync(script, "");

describe("missingRunner", () => {
  it("names a script node is given that is not there, and a program not on PATH", () => {
    expect(missingRunner("node /home/bo/src/baton/cli/bin/baton.mjs", tmp.dir)).toBe("/home/bo/src/baton/cli/bin/baton.mjs");
    expect(missingRunner("baton-not-installed-anywhere", tmp.dir)).toBe("baton-not-installed-anywhere");
    expect(missingRunner("BATON_TIMEOUT_MS=5000 /opt/nowhere/baton", tmp.dir)).toBe("/opt/nowhere/baton");
  });

  it("finds what is there: a quoted path with spaces, node on PATH, a relative path from the repository", () => {
    expect(missingRunner(`node "${script}"`, tmp.dir)).toBeNull();
    expect(missingRunner(`node '${script}'`, tmp.dir)).toBeNull();
    // Unquoted, a shell splits it at the space, and node is given ./my.
    expect(missingRunner("node ./my\u0020checkout/cli/bin/baton.mjs", tmp.dir)).toBe("./my");
    expect(missingRunner(`node "./my checkout/cli/bin/baton.mjs"`, tmp.dir)).toBeNull();
  });

  it("does not second-guess what a shell works out itself", () => {
    for (const runner of ["exec baton", "command baton", "env BATON_MODE=full baton", "FOO=1", "$HOME/bin/baton", "~/bin/baton", "npx --yes ./x | cat"]) {
      expect(missingRunner(runner, tmp.dir), runner).toBeNull();
    }
  });
});
