import { parseBody } from "@/lib/api/parse-body";
import { guard } from "@/lib/auth/guard";
import { projectOutSchema } from "@/lib/projects/project-schemas";
import { createProject, listProjects } from "@/lib/projects/projects";
import { z } from "zod";

export const GET = guard("read", async ({ db, principal }) => {
  const items = await listProjects(db, principal);
  return Response.json({ ok: true, items: z.array(projectOutSchema).parse(items), nextCursor: null });
});

export const POST = guard("write", async ({ request, db, principal, maxBodyBytes }) => {
  const body = await parseBody(request, z.unknown(), maxBodyBytes);
  const project = await createProject(db, principal, body);
  return Response.json({ ok: true, project: projectOutSchema.parse(project) }, { status: 201 });
});
