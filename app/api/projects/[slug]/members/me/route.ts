import { guard } from "@/lib/auth/guard";
import { leaveProject } from "@/lib/projects/members";

/** The caller leaves the project; 409 for its last owner. */
export const DELETE = guard<{ slug: string }>("write", async ({ db, principal, params }) => {
  await leaveProject(db, principal, params.slug);
  return Response.json({ ok: true, left: params.slug });
});
