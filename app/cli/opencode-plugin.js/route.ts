import { publicRoute } from "@/lib/auth/guard";
import { opencodePlugin } from "@/lib/distribution/cli-bundle";
import { serveFile } from "@/lib/distribution/served-file";

// Public like the CLI: the plugin file that opencode loads from ~/.config/opencode/plugins/. As served it runs `baton` from PATH;
// `baton install opencode` writes the same file with the command and time limits baked in.
export const GET = publicRoute(async ({ request }) =>
  serveFile(request, opencodePlugin(), { "content-type": "text/javascript; charset=utf-8", "content-disposition": 'inline; filename="opencode-plugin.js"' }),
);
