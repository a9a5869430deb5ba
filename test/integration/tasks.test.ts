import { beforeAll, describe, expect, it } from "vitest";
import { tableCounts } from "../support/fixtures";
import { TEST_MAX_BODY_BYTES, testWorld } from "../support/world";

// One real server on a real database file. ana owns alpha (bo member, vi viewer); cy owns beta.
const { databaseUrl, as } = testWorld({ env: { BATON_MAX_BODY_BYTES: TEST_MAX_BODY_BYTES } });
const memoryPath = (slug: string, taskId: string) => `/api/projects/${slug}/tasks/${taskId}/memory`;

beforeAll(async () => {
  expect((await as("cy")("PUT", memoryPath("beta", "task-1"), { markdown: "beta's secret" })).status).toBe(200);
});

describe("task memory", () => {
  it("GET before any PUT → 404", async () => {
    const res = await as("ana")("GET", memoryPath("alpha", "task-368"));
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found");
  });

  it("PUT creates, PUT again replaces; GET answers the latest, without internal ids", async () => {
    const first = await as("ana")("PUT", memoryPath("alpha", "task-368"), { markdown: "# task-368\n- started" });
    expect(first.status, first.text).toBe(200);
    expect(first.json).toEqual({
      ok: true,
      memory: { project: "alpha", taskId: "task-368", markdown: "# task-368\n- started", updatedAt: expect.any(String), updatedBy: "ana", updatedByYou: true },
    });
    const second = await as("bo")("PUT", memoryPath("alpha", "task-368"), { markdown: "# task-368\n- started\n- guard done" });
    expect(second.status).toBe(200);
    expect(second.json.memory.updatedAt >= first.json.memory.updatedAt).toBe(true);
    expect(second.json.memory).toMatchObject({ updatedBy: "bo", updatedByYou: true });
    // Who wrote it last is named, and whether it was the reader (baton task start imports only the reader's own).
    const read = await as("vi")("GET", memoryPath("alpha", "task-368"));
    expect(read.json).toEqual({ ok: true, memory: { ...second.json.memory, updatedByYou: false } });
  });

  it.each([
    { name: "trailing spaces and blank lines", markdown: "notes   \n\n\n" },
    { name: "CRLF", markdown: "---\r\ntask_id: t\r\n---\r\n- a\r\n" },
    { name: "unicode", markdown: "Zürich ✓ 東京 🧪 a\u0301" },
    { name: "empty (a task just started)", markdown: "" },
    { name: "only whitespace", markdown: " \t\n" },
  ])("keeps the markdown byte for byte: $name", async ({ markdown }) => {
    const taskId = `bytes-${Math.random().toString(36).slice(2)}`;
    expect((await as("ana")("PUT", memoryPath("alpha", taskId), { markdown })).status).toBe(200);
    const read = await as("ana")("GET", memoryPath("alpha", taskId));
    expect(Buffer.from(read.json.memory.markdown)).toEqual(Buffer.from(markdown));
  });

  it("is per project: the same task id elsewhere is another memory", async () => {
    expect((await as("ana")("PUT", memoryPath("gamma", "task-368"), { markdown: "gamma's" })).status).toBe(200);
    expect((await as("ana")("GET", memoryPath("alpha", "task-368"))).json.memory.markdown).toContain("guard done");
    expect((await as("ana")("GET", memoryPath("gamma", "task-368"))).json.memory.markdown).toBe("gamma's");
  });

  it.each([
    { name: "dot-dot", taskId: ".." },
    { name: "a leading dot", taskId: ".hidden" },
    { name: "an encoded slash", taskId: "a%2Fb" },
    { name: "a space", taskId: "task%20368" },
    { name: "101 characters", taskId: "t".repeat(101) },
    { name: "a leading dash", taskId: "-task" },
  ])("a bad task id ($name) → 400 on GET and PUT, nothing stored", async ({ taskId }) => {
    const before = await tableCounts(databaseUrl);
    const get = await as("ana")("GET", memoryPath("alpha", taskId));
    const put = await as("ana")("PUT", memoryPath("alpha", taskId), { markdown: "x" });
    // ".." is resolved away by the URL itself, so it reaches no memory route at all.
    const expected = taskId === ".." ? 404 : 400;
    expect(get.status).toBe(expected);
    expect(put.status).toBe(expected);
    expect(await tableCounts(databaseUrl)).toEqual(before);
  });

  it.each([
    { name: "no markdown", body: {} },
    { name: "markdown a number", body: { markdown: 1 } },
    { name: "markdown null", body: { markdown: null } },
    { name: "markdown with NUL", body: { markdown: "a\u0000b" } },
    { name: "an array", body: [] },
    { name: "broken JSON", body: "{" },
  ])("a bad body ($name) → 400, the stored memory unchanged", async ({ body }) => {
    const before = await tableCounts(databaseUrl);
    const stored = (await as("ana")("GET", memoryPath("alpha", "task-368"))).json;
    const res = await as("ana")("PUT", memoryPath("alpha", "task-368"), body);
    expect(res.status, res.text).toBe(400);
    expect(await tableCounts(databaseUrl)).toEqual(before);
    expect((await as("ana")("GET", memoryPath("alpha", "task-368"))).json).toEqual(stored);
  });
});

describe("active task", () => {
  it("none at first; PUT sets it, GET reads it, DELETE clears it (twice is fine)", async () => {
    expect((await as("ana")("GET", "/api/projects/alpha/active-task")).json).toEqual({ ok: true, activeTask: null });
    const set = await as("ana")("PUT", "/api/projects/alpha/active-task", { taskId: "task-368" });
    expect(set.status, set.text).toBe(200);
    expect(set.json).toEqual({ ok: true, activeTask: { taskId: "task-368", setAt: expect.any(String) } });
    expect((await as("ana")("GET", "/api/projects/alpha/active-task")).json).toEqual(set.json);
    const moved = await as("ana")("PUT", "/api/projects/alpha/active-task", { taskId: "task-400" });
    expect(moved.json.activeTask.taskId).toBe("task-400");
    for (let i = 0; i < 2; i++) {
      const cleared = await as("ana")("DELETE", "/api/projects/alpha/active-task");
      expect(cleared.status).toBe(200);
      expect(cleared.json).toEqual({ ok: true, activeTask: null });
    }
    expect((await as("ana")("GET", "/api/projects/alpha/active-task")).json.activeTask).toBeNull();
  });

  it("is each user's own, per project", async () => {
    await as("ana")("PUT", "/api/projects/alpha/active-task", { taskId: "ana-task" });
    await as("bo")("PUT", "/api/projects/alpha/active-task", { taskId: "bo-task" });
    await as("ana")("PUT", "/api/projects/gamma/active-task", { taskId: "gamma-task" });
    expect((await as("ana")("GET", "/api/projects/alpha/active-task")).json.activeTask.taskId).toBe("ana-task");
    expect((await as("bo")("GET", "/api/projects/alpha/active-task")).json.activeTask.taskId).toBe("bo-task");
    expect((await as("ana")("GET", "/api/projects/gamma/active-task")).json.activeTask.taskId).toBe("gamma-task");
    await as("bo")("DELETE", "/api/projects/alpha/active-task");
    expect((await as("ana")("GET", "/api/projects/alpha/active-task")).json.activeTask.taskId).toBe("ana-task");
    expect((await as("vi")("GET", "/api/projects/alpha/active-task")).json.activeTask).toBeNull();
  });

  it.each([
    { name: "no taskId", body: {} },
    { name: "taskId a number", body: { taskId: 368 } },
    { name: "taskId with a slash", body: { taskId: "a/b" } },
    { name: "taskId empty", body: { taskId: "" } },
    { name: "taskId too long", body: { taskId: "t".repeat(101) } },
    { name: "broken JSON", body: "{" },
  ])("a bad body ($name) → 400, the active task unchanged", async ({ body }) => {
    const before = await tableCounts(databaseUrl);
    const res = await as("ana")("PUT", "/api/projects/alpha/active-task", body);
    expect(res.status, res.text).toBe(400);
    expect(await tableCounts(databaseUrl)).toEqual(before);
    expect((await as("ana")("GET", "/api/projects/alpha/active-task")).json.activeTask.taskId).toBe("ana-task");
  });
});

describe("who may read and write task memory and the active task", () => {
  const routes = [
    { method: "GET", path: "/api/projects/{p}/tasks/task-1/memory" },
    { method: "PUT", path: "/api/projects/{p}/tasks/task-1/memory", body: { markdown: "x" } },
    { method: "GET", path: "/api/projects/{p}/active-task" },
    { method: "PUT", path: "/api/projects/{p}/active-task", body: { taskId: "task-1" } },
    { method: "DELETE", path: "/api/projects/{p}/active-task" },
  ];
  const writes = routes.filter((r) => r.method !== "GET");

  it.each(routes)("a member of another project → 404 on $method $path, nothing changes", async ({ method, path, body }) => {
    const before = await tableCounts(databaseUrl);
    const res = await as("bo")(method, path.replace("{p}", "beta"), body);
    expect(res.status).toBe(404);
    expect(res.json.error.message).not.toContain("secret");
    expect(await tableCounts(databaseUrl)).toEqual(before);
    expect((await as("cy")("GET", memoryPath("beta", "task-1"))).json.memory.markdown).toBe("beta's secret");
  });

  it.each(routes)("a token limited to another project → 403 on $method $path", async ({ method, path, body }) => {
    const res = await as("anaGammaOnly")(method, path.replace("{p}", "alpha"), body);
    expect(res.status).toBe(403);
  });

  it.each(writes)("a read token → 403 on $method $path, nothing changes", async ({ method, path, body }) => {
    const before = await tableCounts(databaseUrl);
    const res = await as("anaRead")(method, path.replace("{p}", "alpha"), body);
    expect(res.status).toBe(403);
    expect(await tableCounts(databaseUrl)).toEqual(before);
  });

  it.each(writes)("a viewer → 403 on $method $path, nothing changes", async ({ method, path, body }) => {
    const before = await tableCounts(databaseUrl);
    const res = await as("vi")(method, path.replace("{p}", "alpha"), body);
    expect(res.status).toBe(403);
    expect(res.json.error.message).toContain("viewer");
    expect(await tableCounts(databaseUrl)).toEqual(before);
  });

  it("a viewer and a read token read", async () => {
    expect((await as("vi")("GET", memoryPath("alpha", "task-368"))).status).toBe(200);
    expect((await as("anaRead")("GET", memoryPath("alpha", "task-368"))).status).toBe(200);
    expect((await as("anaRead")("GET", "/api/projects/alpha/active-task")).json.activeTask.taskId).toBe("ana-task");
  });
});
