import { z } from "zod";
import { parseBody } from "@/lib/api/parse-body";
import { guard } from "@/lib/auth/guard";
import { keepInQueue } from "@/lib/learnings/tidy";

/** { ids: [one or two learning ids] }: kept, out of the queue for KEEP_DAYS. */
export const POST = guard<{ slug: string }>("write", async ({ request, db, principal, params, maxBodyBytes }) => {
  await keepInQueue(db, principal, params.slug, await parseBody(request, z.unknown(), maxBodyBytes));
  return Response.json({ ok: true });
});
