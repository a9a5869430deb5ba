import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { runCli } from "../support/cli";
import { sideClient } from "../support/side-db";
import { startServer, tempDir, type RunningServer } from "../support/server";

const tmp = tempDir();
const databaseUrl = `file:${tmp.dir}/cli.db`;
const env = { DATABASE_URL: databaseUrl };
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ databaseUrl });
});
afterAll(async () => {
  await server?.stop();
  tmp.remove();
});

describe("baton admin", () => {
  it("create-user, then create-token printing the token alone, which the server accepts", async () => {
    const user = await runCli(["admin", "create-user", "--email", "Cy@Example.com", "--password", "long enough", "--name", "Cy"], { env });
    expect(user.code).toBe(0);
    // The first account is the admin.
    expect(JSON.parse(user.stdout)).toMatchObject({ ok: true, user: { email: "cy@example.com", name: "Cy", role: "admin" } });

    const token = await runCli(["admin", "create-token", "--email", "cy@example.com", "--name", "ci", "--scope", "read"], { env });
    expect(token.code).toBe(0);
    expect(token.stdout).toMatch(/^baton_[A-Za-z0-9_-]{43}\n$/);
    const res = await apiClient(server.url, token.stdout.trim())("GET", "/api/projects");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true, items: [], nextCursor: null });
  });

  it("create-user makes a member after the first account, an admin with --admin", async () => {
    // Runs after the first test's account exists (vitest runs a file's tests in order).
    const member = await runCli(["admin", "create-user", "--email", "mo@example.com", "--password", "long enough"], { env });
    expect(JSON.parse(member.stdout)).toMatchObject({ ok: true, user: { role: "member" } });
    const admin = await runCli(["admin", "create-user", "--email", "ad@example.com", "--password", "long enough", "--admin"], { env });
    expect(JSON.parse(admin.stdout)).toMatchObject({ ok: true, user: { role: "admin" } });
  });

  it.each([
    { args: ["admin", "create-user", "--email", "cy@example.com", "--password", "another one"], code: 3, stderr: /already exists/ },
    { args: ["admin", "create-user", "--email", "not-an-email", "--password", "long enough"], code: 2, stderr: /email/ },
    { args: ["admin", "create-user", "--email", "dee@example.com", "--password", "short"], code: 2, stderr: /8 characters/ },
    { args: ["admin", "create-user", "--email", "dee@example.com"], code: 2, stderr: /--password is required/ },
    { args: ["admin", "create-token", "--email", "nobody@example.com", "--name", "x"], code: 4, stderr: /no user/ },
    { args: ["admin", "create-token", "--email", "cy@example.com", "--name", "x", "--project", "ghost"], code: 4, stderr: /ghost/ },
    { args: ["admin", "create-token", "--email", "cy@example.com", "--name", "x", "--scope", "admin"], code: 2, stderr: /--scope/ },
    { args: ["admin", "create-token", "--email", "cy@example.com", "--name", "x", "--bogus"], code: 2, stderr: /bogus/ },
    // A name is shown on one line (baton whoami, the dashboard): a line break would start a line of its own.
    { args: ["admin", "create-token", "--email", "cy@example.com", "--name", "laptop\nINJECTED"], code: 2, stderr: /No line breaks/ },
    { args: ["admin", "drop-tables"], code: 2, stderr: /unknown admin command/ },
    { args: ["nonsense"], code: 2, stderr: /unknown command/ },
  ])("$args.1 $args.2… → exit $code", async ({ args, code, stderr }) => {
    const result = await runCli(args, { env });
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(stderr);
    expect(result.stdout).toBe("");
  });

  it("create-token refuses a disabled account, whose tokens would be refused, and serves it again once enabled", async () => {
    const made = await runCli(["admin", "create-user", "--email", "di@example.com", "--password", "long enough"], { env });
    const { id } = JSON.parse(made.stdout).user;
    const cy = apiClient(server.url, (await runCli(["admin", "create-token", "--email", "cy@example.com", "--name", "admin"], { env })).stdout.trim());
    expect((await cy("PATCH", `/api/admin/users/${id}`, { disabled: true })).status).toBe(200);
    const refused = await runCli(["admin", "create-token", "--email", "di@example.com", "--name", "ci"], { env });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/^baton: This account is disabled: enable it first/);
    expect(refused.stdout).toBe("");
    expect((await cy("PATCH", `/api/admin/users/${id}`, { disabled: false })).status).toBe(200);
    const token = await runCli(["admin", "create-token", "--email", "di@example.com", "--name", "ci"], { env });
    expect(token.code, token.stderr).toBe(0);
    expect((await apiClient(server.url, token.stdout.trim())("GET", "/api/projects")).status).toBe(200);
    // No token was made while it was disabled, for enabling to bring back: the one above is its only one.
    const db = sideClient(databaseUrl);
    expect((await db.execute({ sql: "SELECT count(*) AS n FROM api_tokens WHERE user_id = ?", args: [id] })).rows[0]!.n).toBe(1);
    db.close();
  });

  it("a wrong DATABASE_URL is a usage error naming the variable", async () => {
    const result = await runCli(["admin", "create-user", "--email", "e@example.com", "--password", "long enough"], {
      env: { DATABASE_URL: "mysql://x" },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("DATABASE_URL");
  });
});
