import { parseBody } from "@/lib/api/parse-body";
import { guard } from "@/lib/auth/guard";
import { projectOutSchema } from "@/lib/projects/project-schemas";
import { requireProject, updateProject } from "@/lib/projects/projects";
import { z } from "zod";

export const GET = guard<{ slug: string }>("read", async ({ db, principal, params }) => {
  const project = await requireProject(db, principal, params.slug);
  return Response.json({ ok: true, project: projectOutSchema.parse(project) });
});

/** Owners: `{ injectionPaused }`. A paused project's context route answers an empty context. */
export const PATCH = guard<{ slug: string }>("write", async ({ request, db, principal, params, maxBodyBytes }) => {
  const body = await parseBody(request, z.unknown(), maxBodyBytes);
  const project = await updateProject(db, principal, params.slug, body);
  return Response.json({ ok: true, project: projectOutSchema.parse(project) });
});
