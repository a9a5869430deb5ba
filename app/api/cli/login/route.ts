import { z } from "zod";
import { originFromHeaders } from "@/lib/api/origin-from-headers";
import { parseBody } from "@/lib/api/parse-body";
import { startCliLogin } from "@/lib/auth/cli-login";
import { clientAddress } from "@/lib/auth/connection-security";
import { publicRoute } from "@/lib/auth/guard";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";

/** Public: `baton login` asks for a code pair before anyone is signed in on that machine. */
export const POST = publicRoute(async ({ request }) => {
  const config = getConfig();
  const input = await parseBody(request, z.unknown(), config.maxBodyBytes, { optional: true });
  const started = await startCliLogin(getDb(), {
    input,
    address: clientAddress(request.headers, config.trustProxy),
    origin: originFromHeaders(request.headers, config.baseUrl),
  });
  return Response.json({ ok: true, ...started }, { headers: { "cache-control": "no-store" } });
});
