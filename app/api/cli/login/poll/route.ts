import { z } from "zod";
import { parseBody } from "@/lib/api/parse-body";
import { pollCliLogin } from "@/lib/auth/cli-login";
import { publicRoute } from "@/lib/auth/guard";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";

/**
 * Public, with the device code as the credential: 200 with the token once approved (once), else 428
 * while waiting, 429 (slow_down) when asked too often, 403 (denied), 410 (expired, or used already).
 */
export const POST = publicRoute(async ({ request }) => {
  const input = await parseBody(request, z.unknown(), getConfig().maxBodyBytes);
  return Response.json({ ok: true, ...(await pollCliLogin(getDb(), input)) }, { headers: { "cache-control": "no-store" } });
});
