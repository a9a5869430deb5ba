import { z } from "zod";
import { parseBody } from "@/lib/api/parse-body";
import { guard } from "@/lib/auth/guard";
import { replaceInQueue } from "@/lib/learnings/tidy";

/** { keep, drop, how: "merge" | "supersede" }: `drop` is superseded by `keep`. */
export const POST = guard<{ slug: string }>("write", async ({ request, db, principal, params, maxBodyBytes }) => {
  await replaceInQueue(db, principal, params.slug, await parseBody(request, z.unknown(), maxBodyBytes));
  return Response.json({ ok: true });
});
