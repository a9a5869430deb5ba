import { copyFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withoutCredentials } from "@/lib/secrets/without-credentials";
import { tempDir } from "../support/server";
import { FIXTURES, fixture, homeEnv, makeRepo, runBaton, waitFor, writeUserConfig } from "../fixtures/cli/cli-env";

// A remote's URL may carry a token (`https://x-access-token:ghp_…@github.com/…`, as CI and some
// credential helpers write it): the hooks send the remote as a hint, without it.

const TOKEN = "ghp_R3m0teT0kenThatMustStayHome0123456789";
const tmp = tempDir("baton-cli-remote-");
const requests: { method: string; url: string; body: string }[] = [];
const server = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  requests.push({ method: req.method ?? "", url: req.url ?? "", body: Buffer.concat(chunks).toString("utf8") });
  res.writeHead(200, { "content-type": "application/json" });
  res.end(req.url?.startsWith("/api/context?") ? JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "ok" } }) : JSON.stringify({ ok: true }));
});
let home = "";
let repo = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  home = path.join(tmp.dir, "home");
  writeUserConfig(home, { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, token: "baton-token" });
  repo = makeRepo(path.join(tmp.dir, "web"), { remote: `https://x-access-token:${TOKEN}@github.com/acme/web.git`, commits: ["add the revoke button"] });
  copyFileSync(path.join(FIXTURES, "transcript.jsonl"), path.join(tmp.dir, "transcript.jsonl"));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  tmp.remove();
});

describe("a git remote with a token in it", () => {
  it("reaches the server as a hint without the token, from every hook", async () => {
    const input = (event: string, extra: Record<string, unknown> = {}) =>
      JSON.stringify({ ...JSON.parse(fixture(`hooks/${event}.json`)), cwd: repo, transcript_path: path.join(tmp.dir, "transcript.jsonl"), ...extra });
    const runs = [
      ["session-start", input("session-start")],
      ["prompt", JSON.stringify({ session_id: "s1", cwd: repo, prompt: "the revoke button does nothing" })],
      ["pre-compact", input("stop", { hook_event_name: "PreCompact", trigger: "auto" })],
      ["session-end", input("session-end")],
    ] as const;
    for (const [event, stdin] of runs) expect((await runBaton(["hook", event], { cwd: repo, env: homeEnv(home), input: stdin })).code, event).toBe(0);
    // The session-end worker posts the handoff after the hook has returned.
    await waitFor("the handoff posted", () => requests.some((r) => r.method === "POST" && r.url.startsWith("/api/handoffs")));
    const start = requests.find((r) => r.url.startsWith("/api/context?"));
    expect(new URL(start!.url, "http://x").searchParams.get("remote")).toBe("https://github.com/acme/web.git");
    for (const r of requests) expect(`${r.method} ${r.url} ${r.body}`).not.toContain(TOKEN.slice(4));
  });

  it("loses only the credentials: scheme, host, port and path stay, an scp-like user stays", () => {
    expect(withoutCredentials(`https://x-access-token:${TOKEN}@github.com/acme/web.git`)).toBe("https://github.com/acme/web.git");
    expect(withoutCredentials(`https://${TOKEN}@github.com/acme/web`)).toBe("https://github.com/acme/web");
    expect(withoutCredentials("ssh://git@git.example.com:2222/acme/web.git")).toBe("ssh://git.example.com:2222/acme/web.git");
    expect(withoutCredentials("https://ana:p@ss@gitlab.example.com/acme/web.git")).toBe("https://gitlab.example.com/acme/web.git");
    expect(withoutCredentials("git@github.com:acme/web.git")).toBe("git@github.com:acme/web.git");
    expect(withoutCredentials("https://github.com/acme/web.git")).toBe("https://github.com/acme/web.git");
    expect(withoutCredentials("/srv/git/web.git")).toBe("/srv/git/web.git");
  });
});
