import { expect } from "vitest";
import { apiClient } from "./api";
import { STANDARD_CAST, TEST_MAX_BODY_BYTES, testWorld } from "./world";

/**
 * The world of the session-queue tests: two server instances on one database file for the races
 * (several processes sharing one WAL database is how Baton scales out). ana owns alpha, queue, order
 * and gamma (bo and dee members of alpha and queue, vi a viewer of alpha); cy owns beta; ana2 is a
 * second write token of ana's. For one test file: registers its own beforeAll and afterAll.
 */
export function sessionsTestWorld() {
  const world = testWorld({
    env: { BATON_MAX_BODY_BYTES: TEST_MAX_BODY_BYTES },
    instances: 2,
    users: ["ana", "bo", "vi", "cy", "dee"],
    projects: { alpha: "ana", queue: "ana", order: "ana", gamma: "ana", beta: "cy" },
    members: [
      { project: "alpha", user: "bo", role: "member" },
      { project: "alpha", user: "dee", role: "member" },
      { project: "queue", user: "bo", role: "member" },
      { project: "queue", user: "dee", role: "member" },
      { project: "alpha", user: "vi", role: "viewer" },
    ],
    tokens: { ...STANDARD_CAST.tokens, ana2: { user: "ana" } },
  });
  const agents = ["ana", "bo", "dee", "ana2"];

  /** The i-th of many concurrent agents: tokens of several members, requests spread over both instances. */
  const agent = (i: number) => apiClient(world.servers[i % 2]!.url, world.tokens[agents[i % agents.length]!]);

  async function queue(who: string, slug: string, markdown: string) {
    const res = await world.as(who)("POST", `/api/projects/${slug}/sessions`, { markdown });
    expect(res.status, res.text).toBe(201);
    return res.json.session as { id: string; [key: string]: unknown };
  }

  const statusInDb = async (id: string) => String((await world.sql("SELECT status FROM session_docs WHERE id = ?", [id]))[0]!.status);

  return { world, agent, queue, statusInDb };
}
