import type { Metadata } from "next";
import Link from "next/link";
import { Snippet } from "@/components/settings/snippet";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/session";
import { connectSnippets } from "@/lib/dashboard/connect-snippets";
import { serverOrigin } from "@/lib/dashboard/server-origin";

export const metadata: Metadata = { title: "Connect an agent" };

export default async function ConnectPage() {
  await requireUser();
  const origin = await serverOrigin();
  const s = connectSnippets(origin);
  return (
    <div className="stack-lg">
      <PageHeader title="Connect an agent">
        <p>
          Claude Code gets its context from this server (<code data-testid="server-origin">{origin}</code>) through two hooks
          and an MCP server. Make a write token in <Link href="/settings/tokens">API tokens</Link> first; every file below
          reads it from <code>BATON_TOKEN</code>, so no secret lands in the repository.
        </p>
        <p>
          Or let the CLI merge them into the files for you, keeping what is there: <code>{s.install}</code> shows the change,
          and without <code>--dry-run</code> writes it.
        </p>
      </PageHeader>
      <Snippet id="env" title="1. The server and your token" where="~/.profile" text={s.env}>
        Or put them in <code>~/.config/baton/config.json</code> as <code>{s.userConfig.replace(/\s+/g, " ")}</code>.
      </Snippet>
      <Snippet id="hooks" title="2. Session hooks" where=".claude/settings.json" text={s.settings}>
        At session start the hook fetches the context; at session end it leaves a handoff and learning candidates. Neither
        ever blocks or fails the session.
      </Snippet>
      <Snippet id="mcp" title="3. MCP server" where=".mcp.json" text={s.mcp}>
        Tools for the agent mid-session: search and propose learnings, write a handoff, read task memory, pick up a queued
        session.
      </Snippet>
    </div>
  );
}
