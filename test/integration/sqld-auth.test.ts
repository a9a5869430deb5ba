import { generateKeyPairSync, sign } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { runCli } from "../support/cli";
import { startServer, tempDir, type RunningServer } from "../support/server";
import { startSqld, type Sqld } from "../support/sqld";

/**
 * A libSQL server that wants a token, as Turso does: sqld checks an Ed25519-signed JWT. Baton reaches it
 * as `libsql://…` (here without TLS: `?tls=0`) with DATABASE_AUTH_TOKEN, and so does `baton admin`.
 */
const tmp = tempDir();
const SECRET = "sqld-auth-test-secret-0123456789abcdef";
let sqld: Sqld;
let jwt: string;
let url: string;

beforeAll(async () => {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const keyFile = path.join(tmp.dir, "jwt.pem");
  writeFileSync(keyFile, publicKey.export({ type: "spki", format: "pem" }));
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const unsigned = `${part({ alg: "EdDSA", typ: "JWT" })}.${part({ iat: Math.floor(Date.now() / 1000) })}`;
  jwt = `${unsigned}.${sign(null, Buffer.from(unsigned), privateKey).toString("base64url")}`;
  sqld = await startSqld({ jwtKeyFile: keyFile });
  url = `${sqld.url.replace(/^http:/, "libsql:")}?tls=0`;
});
afterAll(async () => {
  await sqld?.stop();
  tmp.remove();
});

describe("a libSQL server with an auth token", () => {
  let server: RunningServer;
  afterAll(async () => server?.stop());

  it("serves with libsql:// and DATABASE_AUTH_TOKEN; baton admin uses the same token", async () => {
    const env = { DATABASE_URL: url, DATABASE_AUTH_TOKEN: jwt, BATON_SECRET: SECRET };
    server = await startServer({ databaseUrl: url, env });
    const health = await apiClient(server.url)("GET", "/api/health");
    expect(health.json).toMatchObject({ ok: true, database: "remote", databaseReachable: true });
    expect((await runCli(["admin", "create-user", "--email", "ana@example.com", "--password", "long enough pass"], { env })).code).toBe(0);
    const token = (await runCli(["admin", "create-token", "--email", "ana@example.com", "--name", "t"], { env })).stdout.trim();
    const created = await apiClient(server.url, token)("POST", "/api/projects", { slug: "alpha", name: "Alpha" });
    expect(created.status, created.text).toBe(201);
  });

  it("a wrong token stops the start with one line, not a stack trace", async () => {
    const started = startServer({ databaseUrl: url, env: { DATABASE_URL: url, DATABASE_AUTH_TOKEN: "not-a-jwt", BATON_SECRET: SECRET } });
    const error = await started.then(
      async (s) => {
        await s.stop();
        return null;
      },
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/baton: cannot prepare the database: .*401/);
    expect(error?.message).not.toMatch(/\n\s+at /);
  });
});
