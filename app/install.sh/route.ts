import { originFromHeaders } from "@/lib/api/origin-from-headers";
import { publicRoute } from "@/lib/auth/guard";
import { getConfig } from "@/lib/config";
import { installScript } from "@/lib/distribution/install-script";
import { serveFile } from "@/lib/distribution/served-file";

// Public: `curl -fsSL <server>/install.sh | sh` runs before the user has a token. The script names
// the address the request came to (BATON_BASE_URL wins), so it differs by Host: caches must key on it.
export const GET = publicRoute(async ({ request }) =>
  serveFile(request, installScript(originFromHeaders(request.headers, getConfig().baseUrl)), {
    "content-type": "text/x-shellscript; charset=utf-8",
    vary: "Host, X-Forwarded-Host, X-Forwarded-Proto",
  }),
);
