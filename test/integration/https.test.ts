import { sideClient } from "../support/side-db";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken } from "../support/fixtures";
import { startCli } from "../support/cli";
import { runProcess } from "../support/run-process";
import { send, submitPageForm } from "../support/page-form";
import { refusedStart, ROOT, startServer, tempDir, type RunningServer } from "../support/server";
import { makeTestCa, type TestTls } from "../support/test-ca";
import { fixture, hookContext, homeEnv, makeRepo, PATIENT_HOOKS, runBaton, writeUserConfig } from "../fixtures/cli/cli-env";
import { BUILT_VERSION, asOlderCli } from "../support/versions";

// Baton serving HTTPS itself (BATON_TLS_CERT, BATON_TLS_KEY: scripts/https-server.mjs, what `npm start`
// runs with them) with a certificate from a team's own CA made here with openssl, and the real CLI's
// hooks trusting that CA (caFile, BATON_CA_FILE, NODE_EXTRA_CA_CERTS) or not.

const tmp = tempDir("baton-https-");
const databaseUrl = `file:${tmp.dir}/https.db`;
let tls: TestTls;
let server: RunningServer;
let token: string;
let repo: string;
/** The password test/support/fixtures.ts gives every user it makes. */
const PASSWORD = "long enough pass";
const UNAVAILABLE = /^Baton: context unavailable/;
const HANDOFF = "Did: the context came over TLS.";

beforeAll(async () => {
  mkdirSync(path.join(tmp.dir, "ca"));
  tls = makeTestCa(path.join(tmp.dir, "ca"));
  server = await startServer({ databaseUrl, tls });
  token = await createUserWithToken(databaseUrl, "ana@example.com");
  // Over the TLS server itself, trusting the test's CA: the handoff is what a served context shows.
  const post = async (target: string, body: unknown) => {
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const reply = await send(server.port, target, { ca: tls.ca, method: "POST", headers, body: Buffer.from(JSON.stringify(body)) });
    expect(reply.status, reply.body).toBe(201);
  };
  await post("/api/projects", { slug: "web", name: "Web" });
  await post("/api/projects/web/handoffs", { markdown: HANDOFF, branch: "main", sessionId: "s-tls" });
  repo = makeRepo(path.join(tmp.dir, "src", "web"), { commits: ["Start"] });
  writeFileSync(path.join(repo, ".baton.json"), JSON.stringify({ project: "web" }));
}, 60_000);
afterAll(async () => {
  await server?.stop();
  tmp.remove();
});

let homes = 0;
/** A HOME of its own for each run: its config file, hook.log and spool say what this run did. */
function freshHome(config: Record<string, unknown> = {}): string {
  const home = path.join(tmp.dir, `home-${++homes}`);
  writeUserConfig(home, { url: server.url, token, ...config });
  return home;
}

async function sessionStart(home: string, env: Record<string, string> = {}) {
  const input = JSON.stringify({ ...JSON.parse(fixture("hooks/session-start.json")), cwd: repo });
  const result = await runBaton(["hook", "session-start"], { cwd: repo, env: homeEnv(home, { ...PATIENT_HOOKS, ...env }), input });
  expect(result.code).toBe(0);
  return { context: hookContext(result.stdout), log: hookLog(home) };
}

function hookLog(home: string): string {
  try {
    return readFileSync(path.join(home, ".cache", "baton", "hook.log"), "utf8");
  } catch {
    return "";
  }
}

describe("Baton's own TLS", () => {
  it("serves HTTPS with the given certificate, and every answer carries HSTS: API, page, the guard's own 404", async () => {
    for (const target of ["/api/health", "/sign-in", "/api/no-such-route"]) {
      const reply = await send(server.port, target, { ca: tls.ca });
      expect(reply.status, target).toBe(target === "/api/no-such-route" ? 404 : 200);
      expect(reply.headers["strict-transport-security"], target).toBe("max-age=31536000");
    }
    // Nothing is served in clear text on the port.
    await expect(send(server.port, "/api/health")).rejects.toThrow();
  });

  it("signs in with a Secure, __Secure- prefixed session cookie, whatever X-Forwarded-Proto the client sends", async () => {
    for (const forged of [{}, { "x-forwarded-proto": "http" }] as Record<string, string>[]) {
      const headers = { host: `127.0.0.1:${server.port}`, ...forged };
      const { reply } = await submitPageForm(server.port, "/sign-in", { email: "ana@example.com", password: PASSWORD }, headers, undefined, tls.ca);
      expect(reply.status, reply.body.slice(0, 300)).toBe(303);
      const cookie = [reply.headers["set-cookie"] ?? []].flat().find((c) => /session_token=/.test(c));
      expect(cookie).toMatch(/^__Secure-better-auth\.session_token=/);
      expect(cookie!.split(";").map((a) => a.trim().toLowerCase())).toContain("secure");
    }
  });
});

describe("graceful shutdown of Baton's own TLS server", () => {
  it("on SIGTERM writes the buffered bookkeeping and rate-limit counts, then exits 143 as `next start` does", async () => {
    const second = await startServer({ databaseUrl, tls });
    const db = sideClient(databaseUrl);
    const count = async (sql: string) => Number((await db.execute(sql)).rows[0]!.n);
    try {
      const logged = await count("SELECT count(*) AS n FROM context_log");
      const counted = await count("SELECT coalesce(sum(count), 0) AS n FROM rate_limit_counts");
      const headers = { authorization: `Bearer ${token}` };
      expect((await send(second.port, "/api/context?project=web", { ca: tls.ca, headers })).status).toBe(200);
      expect((await send(second.port, "/api/projects", { ca: tls.ca, headers })).status).toBe(200);
      // Buffered, not yet written (both flush about once a second), until the signal.
      expect(await count("SELECT count(*) AS n FROM context_log")).toBe(logged);
      const exited = new Promise<number | null>((resolve) => second.process.once("exit", (code) => resolve(code)));
      process.kill(-second.process.pid!, "SIGTERM");
      expect(await exited).toBe(143);
      expect(await count("SELECT count(*) AS n FROM context_log")).toBe(logged + 1);
      expect(await count("SELECT coalesce(sum(count), 0) AS n FROM rate_limit_counts")).toBe(counted + 2);
    } finally {
      db.close();
      await second.stop();
    }
  }, 60_000);
});

describe("the hooks over HTTPS with a team's own CA", () => {
  it("without trusting the CA: no context, and hook.log says how to trust it", async () => {
    const home = freshHome();
    const { context, log } = await sessionStart(home);
    expect(context).toBe(`Baton: context unavailable (the certificate of ${server.url} is not trusted: set caFile, see hook.log).`);
    expect(log).toMatch(/the certificate of https:\/\/127\.0\.0\.1:\d+ is not trusted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE: its CA is not trusted here/);
    expect(log).toContain('"caFile"');
  });

  it("with caFile in the user's config: the context", async () => {
    const { context, log } = await sessionStart(freshHome({ caFile: tls.caFile }));
    expect(context).not.toMatch(UNAVAILABLE);
    expect(context).toContain(HANDOFF);
    expect(log).toBe("");
  });

  it("with BATON_CA_FILE: the context", async () => {
    const { context } = await sessionStart(freshHome(), { BATON_CA_FILE: tls.caFile });
    expect(context).toContain(HANDOFF);
  });

  it("with NODE_EXTRA_CA_CERTS (Node's own way): the context, also beside a caFile of another CA", async () => {
    const { context } = await sessionStart(freshHome(), { NODE_EXTRA_CA_CERTS: tls.caFile });
    expect(context).toContain(HANDOFF);
    mkdirSync(path.join(tmp.dir, "other-ca"));
    const otherCa = makeTestCa(path.join(tmp.dir, "other-ca")).caFile;
    const both = await sessionStart(freshHome({ caFile: otherCa }), { NODE_EXTRA_CA_CERTS: tls.caFile });
    expect(both.context).toContain(HANDOFF);
  });

  it("a caFile in the repository's .baton.json is not taken: a clone does not choose whom to trust", async () => {
    const other = makeRepo(path.join(tmp.dir, "src", "cloned"), { commits: ["Start"] });
    writeFileSync(path.join(other, ".baton.json"), JSON.stringify({ caFile: tls.caFile }));
    const home = freshHome();
    const input = JSON.stringify({ ...JSON.parse(fixture("hooks/session-start.json")), cwd: other });
    const result = await runBaton(["hook", "session-start"], { cwd: other, env: homeEnv(home), input });
    expect(hookContext(result.stdout)).toMatch(UNAVAILABLE);
  });

  it("a caFile that cannot be read is named", async () => {
    const missing = path.join(tmp.dir, "nope.pem");
    const { context, log } = await sessionStart(freshHome({ caFile: missing }));
    expect(context).toMatch(UNAVAILABLE);
    expect(log).toContain(`caFile ${missing} cannot be read`);
  });

  it("baton doctor says the same, and is satisfied once caFile is set", async () => {
    const untrusted = await runBaton(["doctor"], { cwd: repo, env: homeEnv(freshHome()) });
    expect(untrusted.code).toBe(5);
    expect(JSON.parse(untrusted.stdout).server.problem).toMatch(/is not trusted.*"caFile"/);
    const trusted = await runBaton(["doctor"], { cwd: repo, env: homeEnv(freshHome({ caFile: tls.caFile })) });
    expect(JSON.parse(trusted.stdout).server).toMatchObject({ reachable: true, answering: true, problem: null });
  });
});

describe("baton login and logout over HTTPS with a team's own CA", () => {
  /** ana's dashboard session over TLS, as a browser without JavaScript signs in. */
  async function sessionCookie(): Promise<string> {
    const { reply } = await submitPageForm(server.port, "/sign-in", { email: "ana@example.com", password: PASSWORD }, { host: `127.0.0.1:${server.port}` }, undefined, tls.ca);
    const cookie = [reply.headers["set-cookie"] ?? []].flat().find((c) => /session_token=/.test(c));
    expect(cookie, reply.body.slice(0, 300)).toBeDefined();
    return cookie!.split(";")[0]!;
  }

  it("trusting BATON_CA_FILE: login gets its code and keeps the CA as caFile beside the token, so logout (and the hooks) trust it without the variable", async () => {
    const home = path.join(tmp.dir, "home-login");
    const cli = startCli(["login", "--url", server.url], { env: homeEnv(home, { BATON_CA_FILE: tls.caFile, DISPLAY: "", WAYLAND_DISPLAY: "" }), cwd: tmp.dir });
    const [, code] = await cli.stderrMatch(/approve the code ([A-Z]{4}-[A-Z]{4}):/);
    const headers = { host: `127.0.0.1:${server.port}`, cookie: await sessionCookie() };
    const fields = { decision: "approve", name: "tls laptop", scope: "write" };
    const { reply } = await submitPageForm(server.port, `/connect/device?code=${code}`, fields, headers, undefined, tls.ca);
    expect(reply.body.replace(/<!-- -->/g, "")).toContain("Approved.");
    const result = await cli.done;
    expect(result.code, result.stderr).toBe(0);
    const config = JSON.parse(readFileSync(path.join(home, ".config/baton/config.json"), "utf8"));
    expect(config).toEqual({ url: server.url, token: expect.stringMatching(/^baton_/), caFile: tls.caFile });

    const { context } = await sessionStart(home);
    expect(context).toContain(HANDOFF);
    const logout = await runBaton(["logout"], { cwd: tmp.dir, env: homeEnv(home) });
    expect(logout.code, logout.stderr).toBe(0);
    expect(JSON.parse(logout.stdout)).toMatchObject({ revoked: true });
    const me = await send(server.port, "/api/me", { ca: tls.ca, headers: { authorization: `Bearer ${config.token}` } });
    expect(me.status).toBe(401);
  });

  it("without the CA: login stops before any code, saying the certificate is not trusted and how to trust it", async () => {
    const result = await runBaton(["login", "--url", server.url], { cwd: tmp.dir, env: homeEnv(path.join(tmp.dir, "home-login-untrusted")) });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`the certificate of ${server.url} is not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE: its CA is not trusted here; set "caFile"`);
  });
});

describe("install.sh from an HTTPS server with a team's own CA", () => {
  it("with BATON_CA_FILE: downloads the CLI trusting the CA and records it as caFile; the installed hooks then work", async () => {
    const script = (await send(server.port, "/install.sh", { ca: tls.ca })).body;
    expect(script).toContain(`url='${server.url}'`);
    const untrusting = await runProcess("sh", [], { env: homeEnv(path.join(tmp.dir, "home-install-untrusted"), { PATH: process.env.PATH! }), input: script });
    expect(untrusting.code).toBe(1);
    expect(untrusting.stderr).toContain(`could not download ${server.url}/cli/baton.mjs`);

    const home = path.join(tmp.dir, "home-install");
    writeUserConfig(home, { token });
    const install = await runProcess("sh", [], { env: homeEnv(home, { PATH: process.env.PATH!, BATON_CA_FILE: tls.caFile }), input: script });
    expect(install.stderr).toBe("");
    expect(install.code).toBe(0);
    expect(install.stdout).toContain(`Trusting the CA in ${tls.caFile} for it`);
    const config = JSON.parse(readFileSync(path.join(home, ".config/baton/config.json"), "utf8"));
    expect(config).toEqual({ token, url: server.url, caFile: tls.caFile });
    const input = JSON.stringify({ ...JSON.parse(fixture("hooks/session-start.json")), cwd: repo });
    const hook = await runProcess(path.join(home, ".local/bin/baton"), ["hook", "session-start"], { cwd: repo, env: homeEnv(home, PATIENT_HOOKS), input });
    expect(hookContext(hook.stdout)).toContain(HANDOFF);
  });
});

describe("an out-of-date CLI over HTTPS with a team's own CA", () => {
  it("names the update command with the CA for curl and for install.sh", async () => {
    const bundle = readFileSync(path.join(ROOT, "cli/dist/baton.mjs"), "utf8");
    const older = path.join(tmp.dir, "old", "baton.mjs");
    mkdirSync(path.dirname(older), { recursive: true });
    writeFileSync(older, asOlderCli(bundle));
    const result = await runProcess(process.execPath, [older, "learnings"], { env: homeEnv(freshHome({ caFile: tls.caFile })), cwd: tmp.dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe(
      `baton: this CLI is Baton 0.0.1-old, the server at ${server.url} runs ${BUILT_VERSION}; update: curl --cacert ${tls.caFile} -fsSL ${server.url}/install.sh | BATON_CA_FILE=${tls.caFile} sh\n`,
    );
  });
});

describe("the Claude Code plugin from an HTTPS server with a team's own CA", () => {
  it("fetches the CLI trusting the user's caFile, whose hooks then trust it too; without it, says how to", async () => {
    const launcher = path.join(ROOT, "plugins/baton/bin/baton.mjs");
    const input = JSON.stringify({ ...JSON.parse(fixture("hooks/session-start.json")), cwd: repo });
    const run = (home: string, data: string) =>
      runProcess(process.execPath, [launcher, "hook", "session-start"], { cwd: repo, env: homeEnv(home, { CLAUDE_PLUGIN_DATA: path.join(tmp.dir, data), ...PATIENT_HOOKS }), input });
    const untrusted = await run(freshHome(), "plugin-data-untrusted");
    expect(hookContext(untrusted.stdout)).toMatch(/^Baton: context unavailable \(could not fetch the CLI .*does not trust; set "caFile"/);
    const trusted = await run(freshHome({ caFile: tls.caFile }), "plugin-data");
    expect(hookContext(trusted.stdout)).toContain(HANDOFF);
  });
});

/** A start with `env` that must be refused: Baton's HTTPS server as `npm start` runs it, or `next start`. */
const refused = (env: Record<string, string>, command: "next start" | "https server" = "https server") =>
  refusedStart({ PORT: "0", BATON_HOST: "127.0.0.1", DATABASE_URL: `file:${tmp.dir}/refused.db`, ...env }, command);

describe("a start with a wrong TLS setting stops with one line naming the variable", () => {
  it.each([
    { case: "a certificate without its key", env: () => ({ BATON_TLS_CERT: tls.certFile }), variable: "BATON_TLS_KEY is required with BATON_TLS_CERT" },
    { case: "a key without its certificate", env: () => ({ BATON_TLS_KEY: tls.keyFile }), variable: "BATON_TLS_CERT is required with BATON_TLS_KEY" },
    { case: "a certificate file that is not there", env: () => ({ BATON_TLS_CERT: `${tmp.dir}/none.pem`, BATON_TLS_KEY: tls.keyFile }), variable: "BATON_TLS_CERT cannot be read" },
    { case: "a certificate file that is not PEM", env: () => ({ BATON_TLS_CERT: tls.keyFile, BATON_TLS_KEY: tls.keyFile }), variable: "BATON_TLS_CERT is not a PEM certificate" },
    { case: "the key of another certificate", env: () => ({ BATON_TLS_CERT: tls.certFile, BATON_TLS_KEY: path.join(path.dirname(tls.caFile), "ca.key") }), variable: "BATON_TLS_KEY is not the private key of the certificate" },
  ])("$case", async ({ env, variable }) => {
    const { code, lines, stderr } = await refused(env());
    expect(code).toBe(1);
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0]).toContain(`baton: invalid configuration: ${variable}`);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it("`next start` given a certificate refuses it rather than serve plain HTTP", async () => {
    const { code, lines } = await refused({ BATON_TLS_CERT: tls.certFile, BATON_TLS_KEY: tls.keyFile }, "next start");
    expect(code).toBe(1);
    expect(lines[0]).toContain("BATON_TLS_CERT is set, but this server was started by `next start`");
  });
});
