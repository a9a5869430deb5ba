import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken } from "../support/fixtures";
import { send, submitPageForm } from "../support/page-form";
import { freePort, startServer, tempDir, type RunningServer } from "../support/server";
import { makeTestCa, type TestTls } from "../support/test-ca";
import { fixture, hookContext, homeEnv, makeRepo, PATIENT_HOOKS, runBaton, writeUserConfig } from "../fixtures/cli/cli-env";

// The usual other way to HTTPS, as the README shows it: Caddy (Debian's package, `apt install caddy`)
// terminating TLS in front of Baton on 127.0.0.1, with BATON_BASE_URL and BATON_TRUST_PROXY. Its
// certificate here comes from a team CA made in the test. Skipped where caddy is not installed.

const caddyInstalled = spawnSync("caddy", ["version"]).status === 0;
const tmp = tempDir("baton-caddy-");
let tls: TestTls;
let baton: RunningServer;
let caddy: ChildProcess;
let caddyPort: number;
let caddyLog = "";
let token: string;

/** The README's site block, with the test's address and certificate, and Caddy's admin API off. */
const caddyfile = (port: number, upstream: number) => `{
	admin off
	auto_https disable_redirects
}
https://127.0.0.1:${port} {
	tls ${tls.certFile} ${tls.keyFile}
	reverse_proxy 127.0.0.1:${upstream}
	header Strict-Transport-Security "max-age=31536000"
}
`;

beforeAll(async () => {
  if (!caddyInstalled) return;
  mkdirSync(path.join(tmp.dir, "ca"));
  tls = makeTestCa(path.join(tmp.dir, "ca"));
  caddyPort = await freePort();
  const databaseUrl = `file:${tmp.dir}/caddy.db`;
  baton = await startServer({ databaseUrl, env: { BATON_BASE_URL: `https://127.0.0.1:${caddyPort}`, BATON_TRUST_PROXY: "true" } });
  token = await createUserWithToken(databaseUrl, "ana@example.com");
  writeFileSync(path.join(tmp.dir, "Caddyfile"), caddyfile(caddyPort, baton.port));
  caddy = spawn("caddy", ["run", "--config", path.join(tmp.dir, "Caddyfile"), "--adapter", "caddyfile"], {
    cwd: tmp.dir,
    detached: true,
    env: { ...process.env, HOME: tmp.dir, XDG_DATA_HOME: path.join(tmp.dir, "data"), XDG_CONFIG_HOME: path.join(tmp.dir, "config") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  caddy.stderr!.on("data", (d) => (caddyLog += d));
  for (const deadline = Date.now() + 15_000; ; ) {
    const up = await send(caddyPort, "/api/health", { ca: tls.ca }).then((r) => r.status === 200, () => false);
    if (up) break;
    if (Date.now() > deadline || caddy.exitCode !== null) throw new Error(`caddy did not start:\n${caddyLog}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 60_000);
afterAll(async () => {
  if (caddy?.pid && caddy.exitCode === null) process.kill(-caddy.pid, "SIGTERM");
  await baton?.stop();
  tmp.remove();
});

describe.skipIf(!caddyInstalled)("Baton behind Caddy (the README's Caddyfile)", () => {
  it("answers through Caddy with HSTS and signs in with a Secure cookie", async () => {
    const health = await send(caddyPort, "/api/health", { ca: tls.ca });
    expect(health.status).toBe(200);
    expect(health.headers["strict-transport-security"]).toBe("max-age=31536000");
    const headers = { host: `127.0.0.1:${caddyPort}` };
    const { reply } = await submitPageForm(caddyPort, "/sign-in", { email: "ana@example.com", password: "long enough pass" }, headers, undefined, tls.ca);
    expect(reply.status, reply.body.slice(0, 300)).toBe(303);
    const cookie = [reply.headers["set-cookie"] ?? []].flat().find((c) => /session_token=/.test(c));
    expect(cookie).toMatch(/^__Secure-better-auth\.session_token=.*;\s*Secure/i);
  });

  it("the CLI's session-start hook gets the context through it with caFile", async () => {
    const repo = makeRepo(path.join(tmp.dir, "src", "web"), { commits: ["Start"] });
    const home = path.join(tmp.dir, "home");
    writeUserConfig(home, { url: `https://127.0.0.1:${caddyPort}`, token, caFile: tls.caFile });
    const input = JSON.stringify({ ...JSON.parse(fixture("hooks/session-start.json")), cwd: repo });
    const result = await runBaton(["hook", "session-start"], { cwd: repo, env: homeEnv(home, PATIENT_HOOKS), input });
    expect(hookContext(result.stdout)).toContain("## Session state");
  });
});
