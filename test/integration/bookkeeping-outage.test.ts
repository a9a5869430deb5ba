import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { within } from "../support/cluster";
import { runCli } from "../support/cli";
import { createProject } from "../support/fixtures";
import { startServer, tempDir, type RunningServer } from "../support/server";
import { sideClient } from "../support/side-db";
import { startSqld, type Sqld } from "../support/sqld";

const SECRET = "bookkeeping-outage-secret-0123456789ab";
const tmp = tempDir("baton-outage-");

/**
 * What a session was given (context_log, session_served) is written behind, about once a second. An
 * embedded replica serves contexts from its file while its primary is away; their bookkeeping is
 * written once the primary is back (it was dropped, and with it the session's usage verdicts), and the
 * outage is logged once at each end, not with a stack every second.
 */
describe("served-context bookkeeping through a primary outage", () => {
  let sqld: Sqld;
  let server: RunningServer;
  let token: string;
  beforeAll(async () => {
    sqld = await startSqld();
    const env = { DATABASE_URL: sqld.url, BATON_SECRET: SECRET };
    const user = await runCli(["admin", "create-user", "--email", "ana@example.com", "--password", "long enough pass"], { env });
    expect(user.code, user.stderr).toBe(0);
    token = (await runCli(["admin", "create-token", "--email", "ana@example.com", "--name", "outage", "--scope", "write"], { env })).stdout.trim();
    server = await startServer({
      databaseUrl: `file:${tmp.dir}/replica.db`,
      env: { BATON_SECRET: SECRET, DATABASE_SYNC_URL: sqld.url, DATABASE_SYNC_INTERVAL: "0.5" },
    });
    await createProject(server.url, token, "alpha");
    const api = apiClient(server.url, token);
    const added = await api("POST", "/api/learnings", { kind: "pattern", content: "Deploy with the blue green script", project: "alpha", confirmed: true });
    expect(added.status, added.text).toBe(201);
    // In the replica's file, so that it serves the project's contexts with the primary away.
    await within(10_000, async () => (await api("GET", "/api/context?project=alpha&format=text")).text.includes("blue green"));
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await sqld?.stop();
    tmp.remove();
  });

  const served = async (sessionId: string) => {
    const db = sideClient(sqld.url);
    try {
      return Number((await db.execute({ sql: "SELECT count(*) AS n FROM session_served WHERE session_id = ?", args: [sessionId] })).rows[0]!.n);
    } finally {
      db.close();
    }
  };

  it("contexts served while the primary is down are recorded once it is back", async () => {
    const api = apiClient(server.url, token);
    await sqld.kill();
    const sessions = [crypto.randomUUID(), crypto.randomUUID()];
    for (const sessionId of sessions) {
      const context = await api("GET", `/api/context?project=alpha&format=json&sessionId=${sessionId}`);
      expect(context.status, context.text).toBe(200);
    }
    // Several of the once-a-second writes fail meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    await sqld.restart();
    const took = await within(20_000, async () => (await Promise.all(sessions.map(served))).every((n) => n > 0));
    expect(took, server.output().slice(-3000)).not.toBeNull();

    // The line comes through the server's stdout a moment after the rows it wrote can be read.
    await within(5_000, async () => server.output().includes("wrote served-context bookkeeping again"));
    const lines = server.output().split("\n");
    const started = lines.filter((l) => l.includes("could not write served-context bookkeeping"));
    expect(started, server.output().slice(-3000)).toEqual([expect.stringContaining("the database is unavailable")]);
    expect(lines.filter((l) => l.includes("wrote served-context bookkeeping again"))).toHaveLength(1);
    // Rate-limit counts: a line when the outage began, none every second after, and no stack.
    expect(lines.filter((l) => l.includes("could not write rate-limit counts")).length).toBeLessThanOrEqual(1);
    expect(server.output()).not.toMatch(/could not write[^\n]*\n\s+at /);
  }, 60_000);
});
