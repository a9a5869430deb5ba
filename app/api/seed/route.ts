import { z } from "zod";
import { parseBody } from "@/lib/api/parse-body";
import { guard } from "@/lib/auth/guard";
import { exportSeed, updateIdentity } from "@/lib/seeds/seeds";

// The seed is returned as seed.json itself (the download a pai-seed user expects), beside ok.
export const GET = guard("read", async ({ db, principal }) => {
  return Response.json({ ok: true, seed: await exportSeed(db, principal) });
});

export const PUT = guard("write", async ({ request, db, principal, maxBodyBytes }) => {
  const seed = await updateIdentity(db, principal, await parseBody(request, z.unknown(), maxBodyBytes));
  return Response.json({ ok: true, seed });
});
