import { chmodSync, existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runProcess } from "../support/run-process";
import { tempDir } from "../support/server";
import { homeEnv, makeRepo, runBaton } from "../fixtures/cli/cli-env";

// Baton's opencode plugin as `baton install opencode` writes it, loaded by a Node process as opencode
// loads it, its hooks called with inputs that lack the fields opencode normally sends: none may throw
// into the session, and none may write a session file named "undefined". The hook command is a stub
// that answers a context, so the well-formed call at the end shows the plugin still works.

const tmp = tempDir("baton-cli-opencode-plugin-");
afterAll(() => tmp.remove());

describe("Baton's opencode plugin given odd hook inputs", () => {
  it("does nothing and throws nothing for missing fields; a well-formed prompt still gets its context", async () => {
    const home = path.join(tmp.dir, "home");
    const env = homeEnv(home, { BATON_URL: "http://baton.example.test:3000" });
    const repo = makeRepo(path.join(tmp.dir, "repo"));
    const stub = path.join(tmp.dir, "stub-baton");
    writeFileSync(stub, `#!/bin/sh\ncat >/dev/null\necho '{"additionalContext":"CTX from the stub"}'\n`);
    chmodSync(stub, 0o755);
    const installed = await runBaton(["install", "opencode", "--command", stub], { cwd: repo, env });
    expect(installed.code, installed.stderr).toBe(0);
    const plugin = path.join(home, ".config/opencode/plugins/baton.js");

    const script = `
      const { BatonPlugin } = await import(${JSON.stringify(pathToFileURL(plugin).href)});
      const hooks = await BatonPlugin({ directory: ${JSON.stringify(repo)} });
      const calls = [
        ["event"], ["event", {}], ["event", { event: null }], ["event", { event: { type: "session.idle" } }],
        ["experimental.chat.system.transform"], ["experimental.chat.system.transform", { sessionID: "ses_a" }, {}],
        ["chat.message"], ["chat.message", { sessionID: "ses_a" }, {}], ["chat.message", { sessionID: "ses_a" }, { parts: [null] }],
        ["chat.message", { sessionID: "ses_a" }, { message: {} }],
        ["experimental.session.compacting"], ["experimental.session.compacting", {}],
      ];
      const thrown = [];
      for (const [name, ...args] of calls) {
        try { await hooks[name](...args); } catch (error) { thrown.push(name + " " + JSON.stringify(args) + ": " + error.message); }
      }
      const parts = [{ type: "text", text: "What is here?" }];
      await hooks["chat.message"]({ sessionID: "ses_a" }, { message: { id: "msg_1" }, parts });
      const system = [];
      await hooks["experimental.chat.system.transform"]({ sessionID: "ses_a" }, { system });
      console.log(JSON.stringify({ thrown, parts: parts.map((p) => p.text), system }));
    `;
    const ran = await runProcess(process.execPath, ["--input-type=module", "-e", script], { cwd: repo, env });
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual({ thrown: [], parts: ["What is here?", "CTX from the stub"], system: ["CTX from the stub"] });
    const files = path.join(home, ".cache/baton/opencode");
    expect(existsSync(files) ? readdirSync(files).filter((f) => f.startsWith("undefined")) : []).toEqual([]);
  });
});
