import { beforeAll, describe, expect, it } from "vitest";
import { testWorld } from "../support/world";

/**
 * HEAD on the context routes is safe (RFC 9110): it answers GET's headers without the body and records
 * nothing, so a monitor or a proxy's check starts no session, is not "the last session", gives nothing
 * to a session at its prompt, and does not spend the setup note a user is shown once. Next.js answers
 * HEAD with the GET handler when a route exports no HEAD, bookkeeping and all.
 */

const world = testWorld({ users: ["ana"], projects: { web: "ana" }, members: [], tokens: {} });
const ana = world.as("ana");
const count = async (sql: string) => Number((await world.sql(sql))[0]!.n);

/** Written about once a second after the request (the bookkeeping is buffered): waited for past that. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 2_500));

beforeAll(async () => {
  for (const content of ["The flamingo webhook drops the osprey ledger row when the queue restarts", "Pelican deploys need the heron flag"]) {
    expect((await ana("POST", "/api/learnings", { kind: "pattern", content, project: "web", confirmed: true })).status).toBe(201);
  }
}, 120_000);

describe("HEAD on the context routes", () => {
  it("answers GET's headers without a body and records nothing: no session, no setup note spent, nothing given at a prompt", async () => {
    const start = "/api/context?format=text&project=web&q=flamingo+osprey&sessionId=s-head";
    const head = await ana("HEAD", start);
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(head.headers.get("etag")).toBeTruthy();
    const prompt = `/api/context/prompt?${new URLSearchParams({ q: "the flamingo webhook drops osprey rows", sessionId: "s-head", project: "web", format: "text" })}`;
    expect((await ana("HEAD", prompt)).status).toBe(200);
    await settled();
    expect(await count("SELECT count(*) AS n FROM context_log")).toBe(0);
    expect(await count("SELECT count(*) AS n FROM session_served")).toBe(0);
    expect(await count("SELECT count(*) AS n FROM session_projects")).toBe(0);
    expect(await count("SELECT count(*) AS n FROM context_marks WHERE setup_note_at IS NOT NULL OR last_session_id IS NOT NULL")).toBe(0);
    // The first GET is still the first: the setup note is there, and the ETag is the one HEAD gave.
    const get = await ana("GET", start);
    expect(get.status).toBe(200);
    expect(get.headers.get("etag")).toBe(head.headers.get("etag"));
    expect(get.text).toContain("## Baton setup");
    expect(get.text).toContain("flamingo");
    // The prompt then gives what the start did not (nothing was recorded as given by HEAD).
    const asked = await ana("GET", prompt);
    expect(asked.status).toBe(200);
    await settled();
    expect(await count("SELECT count(*) AS n FROM context_log WHERE source IS NOT 'prompt'")).toBe(1);
    expect(await count("SELECT count(*) AS n FROM session_projects")).toBe(1);
  }, 60_000);
});
