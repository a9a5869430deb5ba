import { describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { signInCookie } from "../support/dashboard-session";
import { emailOf, testWorld } from "../support/world";

// The context tells the truth about the user's sessions and setup: "Last session" is their last
// session start served or handoff posted (recorded at write time), and the "Baton setup" note is in
// their first context only, and on the dashboard's home page until they have an identity. The real
// server over HTTP, two instances on one database (the second knows only what the table says); each
// user starts fresh.
const world = testWorld({ users: ["ana", "bo", "cy", "di"], projects: { alpha: "ana" }, members: [{ project: "alpha", user: "bo", role: "member" }], tokens: {}, instances: 2 });
const { as } = world;

const lastSession = (context: string) => context.split("\n").find((l) => l.startsWith("Last session: "));
const text = async (user: string, query: string, instance = 0) => {
  const res = await apiClient(world.servers[instance]!.url, world.tokens[user]!)("GET", `/api/context?format=text&${query}`);
  expect(res.status).toBe(200);
  return res.text;
};
/** The user's row in context_marks, once the buffered bookkeeping (written about once a second) has put it there. */
const markOf = async (user: string, columns: string) =>
  (await world.sql(`SELECT ${columns} FROM context_marks WHERE user_id = (SELECT id FROM users WHERE email = ?)`, [emailOf(user)]))[0];

describe("Last session", () => {
  it("none recorded for a fresh user; after a session start the next session's context says just now; inside that session, the one before it", async () => {
    expect(lastSession(await text("ana", "project=alpha"))).toBe("Last session: none recorded");
    // The start itself is not its own last session.
    expect(lastSession(await text("ana", "project=alpha&sessionId=s1&source=startup"))).toBe("Last session: none recorded");
    // The next session sees s1, at once (this instance remembers it before the bookkeeping is written).
    expect(lastSession(await text("ana", "project=alpha&sessionId=s2&source=startup"))).toBe("Last session: just now");
    expect(lastSession(await text("ana", "project=alpha"))).toBe("Last session: just now");

    // Written: s2 is the last session, s1 the one before it; a compaction of s2 sees s1.
    await expect.poll(async () => (await markOf("ana", "last_session_id"))?.last_session_id, { timeout: 15_000 }).toBe("s2");
    const mark = await markOf("ana", "last_session_at, previous_session_at");
    expect(Number(mark?.previous_session_at)).toBeGreaterThan(0);
    expect(Number(mark?.previous_session_at)).toBeLessThanOrEqual(Number(mark?.last_session_at));

    // Dated an hour and three days back, as the other instance reads them from the table.
    await world.sql(
      "UPDATE context_marks SET last_session_at = last_session_at - 3600000, previous_session_at = previous_session_at - 259200000 WHERE user_id = (SELECT id FROM users WHERE email = ?)",
      [emailOf("ana")],
    );
    expect(lastSession(await text("ana", "project=alpha", 1))).toBe("Last session: 1 h ago");
    expect(lastSession(await text("ana", "project=alpha&sessionId=s2&source=compact", 1))).toBe("Last session: 3 d ago");
    // That compaction was s2 at work just now: the next session says so.
    expect(lastSession(await text("ana", "project=alpha&sessionId=s3&source=startup", 1))).toBe("Last session: just now");
  });

  it("a handoff posted is the user's last session", async () => {
    expect(lastSession(await text("bo", "project=alpha"))).toBe("Last session: none recorded");
    expect((await as("bo")("POST", "/api/projects/alpha/handoffs", { markdown: "Did: the login form.", sessionId: "b1" })).status).toBe(201);
    expect(lastSession(await text("bo", "project=alpha"))).toBe("Last session: just now");
    // Written with the handoff: the other instance reads it at once.
    expect(lastSession(await text("bo", "project=alpha", 1))).toBe("Last session: just now");
    const [mark] = await world.sql("SELECT last_session_id FROM context_marks WHERE user_id = (SELECT id FROM users WHERE email = ?)", [emailOf("bo")]);
    expect(mark?.last_session_id).toBe("b1");
  });
});

describe("the Baton setup note", () => {
  it("is in a user's first context only; needsSetup stays true until they have an identity", async () => {
    const first = await as("cy")("GET", "/api/context?sessionId=c1&source=startup");
    expect(first.json.context).toContain("## Baton setup");
    expect(first.json.needsSetup).toBe(true);
    // Asked again, the same question is not answered from the cache with the note in it.
    for (const query of ["sessionId=c1&source=startup", "sessionId=c2&source=startup", "format=json"]) {
      const again = await as("cy")("GET", `/api/context?${query}`);
      expect(again.json.context).not.toContain("## Baton setup");
      expect(again.json.needsSetup).toBe(true);
    }
    // Recorded (written with the bookkeeping), so it holds on every instance.
    await expect.poll(async () => Number((await markOf("cy", "setup_note_at"))?.setup_note_at ?? 0), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await text("cy", "sessionId=c3&source=startup", 1)).not.toContain("## Baton setup");
  });

  it("is on the dashboard's home page until the user has an identity", async () => {
    const cookie = await signInCookie(world.server.url, emailOf("di"), "long enough pass");
    const home = async () => (await fetch(`${world.server.url}/`, { headers: { cookie } })).text();
    const before = await home();
    expect(before).toContain("Baton setup");
    expect(before).toContain('href="/identity"');
    expect((await as("di")("PUT", "/api/seed", { identity: { aiName: "Ivy", principalName: "Di" } })).status).toBe(200);
    expect(await home()).not.toContain("Baton setup");
    // With an identity, the context shows it instead of any note.
    expect(await text("di", "")).toContain("## Identity");
  });
});
