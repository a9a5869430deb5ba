import { expectProjectOk, resolveProject, type ServerContext } from "../config/server-context";
import { expectOk } from "../http/api-client";

/** What the session API says about one document. */
type SessionAnswer<T> = { session: T };

/**
 * Asks about one session document (read it, or `claim` / `complete` / `release` it) by project and
 * id, since an id is unique only within its project. A project given with --project or configured is
 * the only one asked. A project the server resolved for this repository is asked first;
 * when it has no such document, the id alone is asked, which the server answers while exactly one of
 * the user's projects has that id, and otherwise refuses naming those projects (so --project can say which).
 */
export async function callSession<T>(ctx: ServerContext, flag: string | undefined, id: string, verb: "claim" | "complete" | "release", what: string): Promise<T> {
  const byId = `/api/sessions/${encodeURIComponent(id)}/${verb}`;
  // A bad --project is the user's to fix; no project to guess at all leaves the id alone to ask.
  const project = await resolveProject(ctx, flag).catch((error: unknown) => {
    if (flag) throw error;
    return null;
  });
  if (!project) return expectOk<SessionAnswer<T>>(await ctx.call("POST", byId), what).session;
  const res = await ctx.call("POST", `/api/projects/${encodeURIComponent(project.slug)}/sessions/${encodeURIComponent(id)}/${verb}`);
  if (res.status === 404 && project.from !== "named") return expectOk<SessionAnswer<T>>(await ctx.call("POST", byId), what).session;
  return expectProjectOk<SessionAnswer<T>>(res, what, project).session;
}
