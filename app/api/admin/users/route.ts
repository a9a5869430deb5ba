import { listUsers, requireAdmin } from "@/lib/admin/users";
import { guard } from "@/lib/auth/guard";

/** Admins: a page of the server's users (`?page=N`); anyone else gets the 404 of a missing route. */
export const GET = guard("read", async ({ request, db, principal }) => {
  await requireAdmin(db, principal);
  const page = new URL(request.url).searchParams.get("page") ?? undefined;
  return Response.json({ ok: true, ...(await listUsers(db, principal, { page })) });
});
