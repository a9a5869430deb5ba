import { DATABASE_RETRY_AFTER_SECONDS } from "@/lib/api/errors";
import { publicRoute } from "@/lib/auth/guard";
import { getConfig } from "@/lib/config";
import { databaseReachable } from "@/lib/db/client";
import { version } from "@/package.json";

/** Public: load balancers and `baton` ask it. 503 while the database cannot be reached. */
export const GET = publicRoute(async () => {
  const database = getConfig().database;
  if (await databaseReachable()) return Response.json({ ok: true, version, database, databaseReachable: true });
  return Response.json(
    {
      ok: false,
      version,
      database,
      databaseReachable: false,
      error: { code: "database_unavailable", message: "The database cannot be reached right now; try again shortly." },
    },
    { status: 503, headers: { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) } },
  );
});
