import { parseQuery } from "@/lib/api/parse-query";
import { guard } from "@/lib/auth/guard";
import { resolveSessionProject } from "@/lib/context/project/choose-project";
import { sessionHintsSchema } from "@/lib/context/project/project-query";

/**
 * Which project a session is in, as the context and the prompt stage decide it (the one its start was
 * served for, else resolved from the hints): what the session-end worker files its proposals under,
 * and what `baton` commands use when no project is configured. `project: null`: personal.
 */
export const GET = guard("read", async ({ request, db, principal }) => {
  const q = parseQuery(request, sessionHintsSchema);
  const project = await resolveSessionProject(db, principal, q);
  return Response.json({ ok: true, project: project ? { slug: project.slug, name: project.name } : null });
});
