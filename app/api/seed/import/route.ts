import { z } from "zod";
import { parseBody } from "@/lib/api/parse-body";
import { guard } from "@/lib/auth/guard";
import { importSeed } from "@/lib/seeds/seeds";

export const POST = guard("write", async ({ request, db, principal, maxBodyBytes }) => {
  // A seed.json with years of learnings outgrows the default body limit.
  const summary = await importSeed(db, principal, await parseBody(request, z.unknown(), Math.max(maxBodyBytes, 16 * 1024 * 1024)));
  return Response.json({ ok: true, imported: summary });
});
