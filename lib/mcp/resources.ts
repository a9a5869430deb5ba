import "server-only";
import { ResourceTemplate, type McpServer, type Resource, type Variables } from "@modelcontextprotocol/server";
import { producedByLabel } from "../agents/produced-by";
import { ApiError } from "../api/errors";
import { byline, defuseLine, fenced } from "../context/pack/fence";
import type { MemberProject } from "../db/queries/projects";
import { latestHandoff } from "../handoffs/handoffs";
import { listProjects } from "../projects/projects";
import { sessionListQuerySchema } from "../sessions/session-schemas";
import { insideRepository } from "../sessions/repository-path";
import { getSession, listHeldSessions, listSessions, type SessionRef } from "../sessions/sessions";
import { getActiveTask } from "../tasks/active-task";
import { getTaskMemory } from "../tasks/task-memory";
import { contextText } from "./context-text";
import { runResource } from "./mcp-errors";
import type { McpEnv } from "./mcp-env";

/**
 * Queued documents, and documents the caller holds, listed per project; more are reachable by id
 * (pickup_session claims the next one anyway).
 */
const LISTED_SESSIONS = 20;

/** What every resource works with: the request's env, and its readable projects and active tasks, each loaded once. */
type ResourceEnv = McpEnv & {
  projects: () => Promise<MemberProject[]>;
  activeTasks: () => Promise<{ project: MemberProject; taskId: string; markdown: string }[]>;
};

const one = (v: string | string[] | undefined): string => (Array.isArray(v) ? (v[0] ?? "") : (v ?? ""));

/** A domain read that answers not_found → undefined: listings show only what can be read. */
async function orNone<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") return undefined;
    throw error;
  }
}

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let cached: Promise<T> | undefined;
  return () => (cached ??= load());
}

const list = (uri: string, build: () => Promise<Resource[]>) => async () => ({ resources: await runResource(uri, build) });
const read = <T>(uri: URL, work: () => Promise<T>) => runResource(uri.href, work);

/**
 * Baton's resources. Every list callback starts from the projects this token may read (a token limited
 * to some projects, or a user who is not a member, never sees the others), and every read goes through
 * the same domain functions, with the same project rules, as the HTTP API.
 */
export function registerResources(server: McpServer, env: McpEnv): void {
  const { db, principal } = env;
  const projects = once(() => listProjects(db, principal));
  const activeTasks = once(async () => {
    const found: { project: MemberProject; taskId: string; markdown: string }[] = [];
    for (const project of await projects()) {
      const active = await getActiveTask(db, principal, project.slug);
      if (!active) continue;
      const memory = await orNone(() => getTaskMemory(db, principal, project.slug, active.taskId));
      if (memory) found.push({ project, taskId: active.taskId, markdown: memory.markdown });
    }
    return found;
  });
  const resourceEnv: ResourceEnv = { ...env, projects, activeTasks };
  registerContext(server, resourceEnv);
  // Before the {taskId} template: resources/read takes the first template that matches.
  registerActiveMemory(server, resourceEnv);
  registerMemory(server, resourceEnv);
  registerLatestHandoff(server, resourceEnv);
  registerSession(server, resourceEnv);
}

function registerContext(server: McpServer, env: ResourceEnv): void {
  server.registerResource(
    "context",
    new ResourceTemplate("baton://context/{project}", {
      list: list("baton://context/", async () =>
        (await env.projects()).map((p) => ({
          uri: `baton://context/${p.slug}`,
          name: `context/${p.slug}`,
          title: `Session-start context of ${defuseLine(p.name)}`,
        })),
      ),
    }),
    {
      title: "Session-start context",
      description:
        "What an agent should know at the start of a session in a project: identity, active task memory, latest handoff, relevant learnings, pending proposals and session state, within the default 2000-token budget. The same text as GET /api/context?project=…&format=text.",
      mimeType: "text/plain",
    },
    (uri, vars: Variables) => read(uri, async () => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: await contextText(env, one(vars.project)) }] })),
  );
}

async function memoryContents(env: ResourceEnv, uri: URL, slug: string, taskId: string) {
  const memory = await getTaskMemory(env.db, env.principal, slug, taskId);
  const updatedAt = memory.updatedAt.toISOString();
  const meta = { project: memory.project, taskId: memory.taskId, updatedAt, updatedBy: memory.updatedBy, updatedByYou: memory.updatedByYou };
  // People write task memory (teammates too): it is quoted under who wrote it and when (lib/context/pack/fence.ts).
  const text = fenced(`Memory of ${memory.taskId} in ${memory.project}`, [byline(memory.updatedBy, memory.updatedByYou), `updated ${updatedAt}`], memory.markdown);
  return { contents: [{ uri: uri.href, mimeType: "text/markdown", text, _meta: meta }] };
}

function registerActiveMemory(server: McpServer, env: ResourceEnv): void {
  server.registerResource(
    "memory-active",
    new ResourceTemplate("baton://memory/{project}/active", {
      list: list("baton://memory/", async () =>
        (await env.activeTasks()).map(({ project, taskId }) => ({
          uri: `baton://memory/${project.slug}/active`,
          name: `memory/${project.slug}/active`,
          title: `Memory of your active task in ${defuseLine(project.name)} (now ${taskId})`,
        })),
      ),
    }),
    {
      title: "Active task memory",
      description:
        "The memory (markdown) of your active task in a project, quoted line by line under who wrote it last and when; follows the active task when it changes.",
      mimeType: "text/markdown",
    },
    (uri, vars) =>
      read(uri, async () => {
        const slug = one(vars.project);
        const active = await getActiveTask(env.db, env.principal, slug);
        if (!active) throw new ApiError("not_found", `You have no active task in "${slug}".`);
        return memoryContents(env, uri, slug, active.taskId);
      }),
  );
}

function registerMemory(server: McpServer, env: ResourceEnv): void {
  server.registerResource(
    "memory",
    new ResourceTemplate("baton://memory/{project}/{taskId}", {
      list: list("baton://memory/", async () =>
        (await env.activeTasks()).map(({ project, taskId, markdown }) => ({
          uri: `baton://memory/${project.slug}/${taskId}`,
          name: `memory/${project.slug}/${taskId}`,
          title: `Memory of ${taskId} in ${defuseLine(project.name)}`,
          size: new TextEncoder().encode(markdown).byteLength,
        })),
      ),
    }),
    {
      title: "Task memory",
      description: "The memory (markdown) of one task in a project, by task id such as task-368, quoted under who wrote it last and when. Listed for your active tasks.",
      mimeType: "text/markdown",
    },
    (uri, vars) => read(uri, () => memoryContents(env, uri, one(vars.project), one(vars.taskId))),
  );
}

function registerLatestHandoff(server: McpServer, env: ResourceEnv): void {
  const { db, principal } = env;
  server.registerResource(
    "handoff-latest",
    new ResourceTemplate("baton://handoff/{project}/latest", {
      list: list("baton://handoff/", async () => {
        const found: Resource[] = [];
        for (const p of await env.projects()) {
          const latest = await orNone(() => latestHandoff(db, principal, p.slug, undefined));
          if (latest) found.push({ uri: `baton://handoff/${p.slug}/latest`, name: `handoff/${p.slug}/latest`, title: `Latest handoff in ${defuseLine(p.name)}` });
        }
        return found;
      }),
    }),
    {
      title: "Latest handoff",
      description:
        "The most recent end-of-session handoff (markdown) of a project, whoever wrote it, quoted line by line under its author, the agent that wrote it when known, time and branch (also in _meta).",
      mimeType: "text/markdown",
    },
    (uri, vars) =>
      read(uri, async () => {
        const { handoff } = await latestHandoff(db, principal, one(vars.project), undefined);
        const { project, id, author, agent, model, branch, sessionId } = handoff;
        const createdAt = handoff.createdAt.toISOString();
        const meta = { project, id, author, agent, model, branch, sessionId, createdAt };
        const text = fenced(`Handoff in ${project}`, [byline(author), producedByLabel(handoff), `at ${createdAt}`, branch && `branch ${branch}`], handoff.markdown);
        return { contents: [{ uri: uri.href, mimeType: "text/markdown", text, _meta: meta }] };
      }),
  );
}

/** The queue of every readable project, and the documents this user holds, each addressed by project and id. */
async function listSessionResources(env: ResourceEnv): Promise<Resource[]> {
  const { db, principal } = env;
  const found: Resource[] = [];
  for (const p of await env.projects()) {
    const todo = await listSessions(db, principal, p.slug, sessionListQuerySchema.parse({ status: "todo", limit: LISTED_SESSIONS }));
    // The caller's own, asked for as such: the first documents in progress may all be teammates'.
    const mine = await listHeldSessions(db, principal, p.slug, LISTED_SESSIONS);
    for (const s of [...mine, ...todo.items]) {
      const state = s.status === "doing" ? "claimed by you" : `queued, priority ${s.priority}`;
      found.push({ uri: `baton://session/${p.slug}/${s.id}`, name: `session/${p.slug}/${s.id}`, title: `Session ${s.id} in ${defuseLine(p.name)} (${state})` });
    }
  }
  return found;
}

async function sessionContents(env: ResourceEnv, uri: URL, ref: SessionRef) {
  const s = await getSession(env.db, env.principal, ref);
  const { project, status, priority, branch, specs, files, claimedBy } = s;
  const createdAt = s.createdAt.toISOString();
  // Only paths inside the repository are offered, as pickup_session does.
  const meta = { project, status, priority, branch, specs: insideRepository(specs), files: insideRepository(files), claimedBy, claimedAt: s.claimedAt?.toISOString() ?? null, createdAt, author: s.author };
  const text = fenced(`Session document ${s.id} in ${project}`, [byline(s.author), `queued ${createdAt}`], s.markdown);
  return { contents: [{ uri: uri.href, mimeType: "text/markdown", text, _meta: meta }] };
}

function registerSession(server: McpServer, env: ResourceEnv): void {
  server.registerResource(
    "session",
    new ResourceTemplate("baton://session/{project}/{id}", { list: list("baton://session/", () => listSessionResources(env)) }),
    {
      title: "Session document",
      description:
        "A queued unit of work of a project (markdown with YAML front matter: id, priority, specs, files…), by project and id, quoted under who queued it and when. Reading does not claim it; the pickup_session tool does. Lists the queue and the documents you hold.",
      mimeType: "text/markdown",
    },
    (uri, vars) => read(uri, () => sessionContents(env, uri, { project: one(vars.project), id: one(vars.id) })),
  );
  // The id alone, as before ids were per project: it reads the document while only one of your projects has that id.
  server.registerResource(
    "session-by-id",
    new ResourceTemplate("baton://session/{id}", { list: undefined }),
    {
      title: "Session document by id",
      description:
        "A session document by id alone; when more than one of your projects has that id, the error names them: read baton://session/{project}/{id} instead.",
      mimeType: "text/markdown",
    },
    (uri, vars) => read(uri, () => sessionContents(env, uri, { id: one(vars.id) })),
  );
}
