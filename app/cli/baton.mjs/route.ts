import { publicRoute } from "@/lib/auth/guard";
import { cliBundle } from "@/lib/distribution/cli-bundle";
import { serveFile } from "@/lib/distribution/served-file";

// Public: a team member fetches the CLI before having a token (install.sh, the Claude Code plugin).
export const GET = publicRoute(async ({ request }) =>
  serveFile(request, cliBundle(), { "content-type": "text/javascript; charset=utf-8", "content-disposition": 'inline; filename="baton.mjs"' }),
);
