import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken } from "../support/fixtures";
import { send } from "../support/page-form";
import { runProcess } from "../support/run-process";
import { ROOT, startServer, tempDir, type RunningServer } from "../support/server";
import { makeTestCa, type TestTls } from "../support/test-ca";
import { fixture, hookContext, homeEnv, makeRepo, PATIENT_HOOKS, runBaton, writeUserConfig } from "../fixtures/cli/cli-env";
import { BUILT_VERSION, asOlderCli } from "../support/versions";

// The real CLI against Baton's own TLS server, with a team's own CA made here with openssl, and small
// node https servers whose certificate is signed by that CA but expired, or made for another host name:
// an address in upper case (HTTPS://) still trusts caFile, a certificate refused says why (not "not
// reachable"), and the update command quotes a CA path as one shell word.

const tmp = tempDir("baton-cli-certificates-");
const databaseUrl = `file:${tmp.dir}/certificates.db`;
const caDir = path.join(tmp.dir, "ca");
let tls: TestTls;
let server: RunningServer;
let token: string;
let repo: string;
const HANDOFF = "Did: the context came over TLS with HTTPS in capitals.";
const badServers: Server[] = [];

/** A server certificate signed by the test's CA: for `san`, valid `days` (0: it has expired a second later). */
function signed(name: string, san: string, days: number): { cert: string; key: string } {
  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: caDir, stdio: ["ignore", "pipe", "pipe"] });
  openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", "/CN=baton-test");
  writeFileSync(path.join(caDir, `${name}.ext`), `subjectAltName=${san}\nextendedKeyUsage=serverAuth\n`);
  openssl("x509", "-req", "-in", `${name}.csr`, "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", `${name}.pem`, "-days", String(days), "-extfile", `${name}.ext`);
  return { cert: readFileSync(path.join(caDir, `${name}.pem`), "utf8"), key: readFileSync(path.join(caDir, `${name}.key`), "utf8") };
}

async function httpsServer(pair: { cert: string; key: string }): Promise<string> {
  const s = createServer(pair, (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'));
  badServers.push(s);
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  return `https://127.0.0.1:${(s.address() as { port: number }).port}`;
}

let expiredUrl: string;
let otherHostUrl: string;

beforeAll(async () => {
  mkdirSync(caDir);
  tls = makeTestCa(caDir);
  expiredUrl = await httpsServer(signed("expired", "IP:127.0.0.1", 0));
  otherHostUrl = await httpsServer(signed("other-host", "DNS:baton.example.test", 2));
  server = await startServer({ databaseUrl, tls });
  token = await createUserWithToken(databaseUrl, "ana@example.com");
  const post = async (target: string, body: unknown) => {
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    expect((await send(server.port, target, { ca: tls.ca, method: "POST", headers, body: Buffer.from(JSON.stringify(body)) })).status).toBe(201);
  };
  await post("/api/projects", { slug: "web", name: "Web" });
  await post("/api/projects/web/handoffs", { markdown: HANDOFF, branch: "main", sessionId: "s-caps" });
  repo = makeRepo(path.join(tmp.dir, "src", "web"), { commits: ["Start"] });
  writeFileSync(path.join(repo, ".baton.json"), JSON.stringify({ project: "web" }));
}, 60_000);
afterAll(async () => {
  await server?.stop();
  for (const s of badServers) s.close();
  tmp.remove();
});

let homes = 0;
const freshHome = (config: Record<string, unknown>) => {
  const home = path.join(tmp.dir, `home-${++homes}`);
  writeUserConfig(home, config);
  return home;
};
const upperCase = () => server.url.replace(/^https:/, "HTTPS:");
const sessionInput = () => JSON.stringify({ ...JSON.parse(fixture("hooks/session-start.json")), cwd: repo });
const logOf = (home: string) => readFileSync(path.join(home, ".cache", "baton", "hook.log"), "utf8");

describe("an address with its scheme in upper case (HTTPS://)", () => {
  it("the hook, doctor and the plugin's launcher trust caFile for it as for https://", async () => {
    const home = freshHome({ url: upperCase(), token, caFile: tls.caFile });
    const hook = await runBaton(["hook", "session-start"], { cwd: repo, env: homeEnv(home, PATIENT_HOOKS), input: sessionInput() });
    expect(hookContext(hook.stdout)).toContain(HANDOFF);

    const doctor = await runBaton(["doctor"], { cwd: repo, env: homeEnv(freshHome({ caFile: tls.caFile }), { BATON_URL: upperCase(), BATON_TOKEN: token }) });
    expect(JSON.parse(doctor.stdout).server).toMatchObject({ url: server.url, reachable: true, answering: true, problem: null });

    const launcher = path.join(ROOT, "plugins/baton/bin/baton.mjs");
    const env = homeEnv(freshHome({ url: upperCase(), token, caFile: tls.caFile }), { CLAUDE_PLUGIN_DATA: path.join(tmp.dir, "plugin-data"), ...PATIENT_HOOKS });
    const plugin = await runProcess(process.execPath, [launcher, "hook", "session-start"], { cwd: repo, env, input: sessionInput() });
    expect(hookContext(plugin.stdout)).toContain(HANDOFF);
  });
});

describe("a certificate refused for another reason than its CA", () => {
  it.each([
    { name: "expired", url: () => expiredUrl, reason: "CERT_HAS_EXPIRED: certificate has expired" },
    { name: "made for another host", url: () => otherHostUrl, reason: "ERR_TLS_CERT_ALTNAME_INVALID: Hostname/IP does not match certificate's altnames" },
  ])("$name: doctor and the hook say the certificate was refused and why, not that the server is out of reach", async ({ url, reason }) => {
    const doctor = await runBaton(["doctor"], { cwd: repo, env: homeEnv(freshHome({ url: url(), token, caFile: tls.caFile })) });
    expect(doctor.code).toBe(5);
    const problem = JSON.parse(doctor.stdout).server.problem as string;
    expect(problem).toContain(`the certificate of ${url()} was refused (${reason}`);
    expect(problem).not.toContain("not reachable");

    const home = freshHome({ url: url(), token, caFile: tls.caFile });
    const hook = await runBaton(["hook", "session-start"], { cwd: repo, env: homeEnv(home, PATIENT_HOOKS), input: sessionInput() });
    expect(hookContext(hook.stdout)).toBe(`Baton: context unavailable (the certificate of ${url()} was refused: see hook.log).`);
    expect(logOf(home)).toContain(reason);
  });
});

describe("an http:// address for a server that speaks HTTPS", () => {
  it("the error says to use https://", async () => {
    const plain = server.url.replace(/^https:/, "http:");
    const whoami = await runBaton(["whoami"], { cwd: repo, env: homeEnv(freshHome({ url: plain, token, caFile: tls.caFile })) });
    expect(whoami.code).toBe(5);
    expect(whoami.stderr).toContain(`the server is not reachable at ${plain} (`);
    expect(whoami.stderr).toContain(`; if it speaks HTTPS, use ${server.url})`);
  });
});

describe("the update command of an out-of-date CLI", () => {
  it("quotes a CA path a shell would split or expand as one word", async () => {
    const bundle = readFileSync(path.join(ROOT, "cli/dist/baton.mjs"), "utf8");
    const older = path.join(tmp.dir, "old", "baton.mjs");
    mkdirSync(path.dirname(older), { recursive: true });
    writeFileSync(older, asOlderCli(bundle));
    const caFile = path.join(tmp.dir, "team ca $HOME.pem");
    copyFileSync(tls.caFile, caFile);
    const result = await runProcess(process.execPath, [older, "learnings"], { env: homeEnv(freshHome({ url: server.url, token, caFile })), cwd: tmp.dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe(
      `baton: this CLI is Baton 0.0.1-old, the server at ${server.url} runs ${BUILT_VERSION}; update: curl --cacert '${caFile}' -fsSL ${server.url}/install.sh | BATON_CA_FILE='${caFile}' sh\n`,
    );
  });
});
