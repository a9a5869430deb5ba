import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE } from "@/lib/api/errors";
import { publicRoute } from "@/lib/auth/guard";
import { getConfig } from "@/lib/config";
import { databaseReachable } from "@/lib/db/client";
import { BATON_VERSION as version } from "@/lib/baton-version";

/** Public: load balancers and `baton` ask it. 503 (with the error shape) while the database is out of reach. */
export const GET = publicRoute(async () => {
  const database = getConfig().database;
  if (await databaseReachable()) return Response.json({ ok: true, version, database, databaseReachable: true });
  const error = { code: "database_unavailable", message: DATABASE_UNAVAILABLE_MESSAGE };
  return Response.json(
    { ok: false, version, database, databaseReachable: false, error },
    { status: 503, headers: { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) } },
  );
});
