import { expectStatus, type Api } from "./context-client";
import type { HeldoutDataset, Learning } from "./dataset";

/** Stores the data set through the API: an identity, the projects, every learning (none merged into another). */
export async function fill(call: Api, data: { projects: { slug: string; name: string }[]; learnings: Learning[] }): Promise<void> {
  // A real user has an identity; it takes its share of the budget like in any session start.
  expectStatus(
    await call("PUT", "/api/seed", {
      identity: {
        aiName: "Kit",
        principalName: "Sam",
        catchphrase: "Small steps, green tests.",
        preferences: { responseStyle: "concise", timezone: "Europe/Amsterdam", locale: "en-GB" },
      },
    }),
    200,
    "PUT /api/seed",
  );

  for (const p of data.projects) {
    expectStatus(await call("POST", "/api/projects", { slug: p.slug, name: p.name }), 201, `POST /api/projects ${p.slug}`);
  }
  const idOf = new Map<string, string>();
  for (const l of data.learnings) {
    const res = await call("POST", "/api/learnings", {
      kind: l.kind,
      content: l.content,
      ...(l.project ? { project: l.project } : {}),
      tags: l.tags,
      confirmed: l.confirmed,
      createdAt: l.createdAt,
    });
    expectStatus(res, 201, `POST /api/learnings ${l.key}`);
    const id = (res.json as { learning?: { id?: string } }).learning?.id;
    if (!id) throw new Error(`no id for ${l.key}: ${res.text.slice(0, 200)}`);
    idOf.set(l.key, id);
  }
  if (new Set(idOf.values()).size !== data.learnings.length) throw new Error("some learnings were merged into one another");
}

/**
 * The memory `baton task start` leaves for each scenario's task (its template, headed by the task's
 * title where the session has one), which the server reads the title from; the hook sends the task
 * as pinned and imported, so the context shows the task's header line only.
 */
export async function fillTasks(call: Api, data: HeldoutDataset): Promise<void> {
  for (const s of data.scenarios) {
    if (!s.task) continue;
    const markdown = `# ${s.taskTitle ? `${s.task}: ${s.taskTitle}` : s.task}\n\n## Goal\n\n## Notes\n\n## Next\n`;
    const url = `/api/projects/${encodeURIComponent(s.project)}/tasks/${encodeURIComponent(s.task)}/memory`;
    expectStatus(await call("PUT", url, { markdown }), 200, `PUT ${url}`);
  }
}
