import { configFileName } from "../config/load-config";
import { requireServer } from "../config/server-context";
import { EXIT } from "../exit-codes";
import { expectOk } from "../http/api-client";
import { parseOptions } from "../output/parse-options";
import { printResult } from "../output/print";

/** What GET /api/me answers (lib/auth/api-tokens.ts describeCaller). */
type Me = {
  user: { name: string; email: string };
  token: { name: string; displayPrefix: string; scope: string; projects: string[]; createdAt: string; lastUsedAt: string | null } | null;
};

/** `baton whoami`: whom the configured token belongs to, the token itself, and the server, as the server sees them. */
export async function runWhoami(args: string[]): Promise<number> {
  parseOptions(args, {});
  const { call, url, config } = requireServer();
  const me = expectOk<Me>(await call("GET", "/api/me"), `${url} did not take the token`);
  const from = config.tokenFrom === "env" ? "BATON_TOKEN" : configFileName(config.userConfigFile);
  printResult({ url, ...me, tokenFrom: from }, () => {
    const lines = [`${me.user.name} <${me.user.email}> at ${url}`];
    if (me.token) {
      const projects = me.token.projects.length ? `only ${me.token.projects.join(", ")}` : "all projects";
      lines.push(`Token "${me.token.name}" (${me.token.displayPrefix}…): ${me.token.scope}, ${projects}; from ${from}`);
    }
    return lines.join("\n");
  });
  return EXIT.ok;
}
