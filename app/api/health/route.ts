import { publicRoute } from "@/lib/auth/guard";
import { getConfig } from "@/lib/config";
import { version } from "@/package.json";

export const GET = publicRoute(async () => Response.json({ ok: true, version, database: getConfig().database }));
