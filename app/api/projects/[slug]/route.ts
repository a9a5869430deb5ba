import { guard } from "@/lib/auth/guard";
import { projectOutSchema } from "@/lib/projects/project-schemas";
import { requireProject } from "@/lib/projects/projects";

export const GET = guard<{ slug: string }>("read", async ({ db, principal, params }) => {
  const project = await requireProject(db, principal, params.slug);
  return Response.json({ ok: true, project: projectOutSchema.parse(project) });
});
