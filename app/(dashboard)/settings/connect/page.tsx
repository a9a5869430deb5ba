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
          Your coding agents (Claude Code, Codex CLI, Gemini CLI, GitHub Copilot CLI, opencode) get their context from this
          server (<code data-testid="server-origin">{origin}</code>) through their hooks and an MCP server, all run by the{" "}
          <code>baton</code> CLI this server hands out, with a token of yours that <code>baton login</code> gets for you.
        </p>
      </PageHeader>
      <Snippet id="install" title="1. The CLI, from this server" text={s.install}>
        Puts <code>baton</code> in <code>~/.local/bin</code> (it needs Node.js 20 or newer, nothing else) and records this
        server in <code>~/.config/baton/config.json</code>. Run it again to update; the CLI says when this server runs a
        newer version.
        {origin.startsWith("https:") ? <TeamCa command={s.installWithCa} /> : null}
      </Snippet>
      <Snippet id="login" title="2. Sign in" text={s.login}>
        Prints a short code and opens this dashboard to approve it (over SSH, open the address it prints on any device
        where you are signed in). You choose the token&apos;s name, scope and projects; the CLI keeps it in{" "}
        <code>~/.config/baton/config.json</code>, readable by you alone. <code>baton whoami</code> shows whose it is,{" "}
        <code>baton logout</code> revokes it. For scripts, a token from <Link href="/settings/tokens">API tokens</Link> works
        in the environment too: <code>{s.env}</code>.
      </Snippet>
      <Snippet id="plugin" title="3a. Claude Code plugin, for every repository" text={s.plugin}>
        The Baton repository is a Claude Code plugin marketplace: the plugin brings the session hooks and Baton&apos;s MCP
        tools, and fetches its CLI from this server. It reads the token from <code>~/.config/baton/config.json</code>,{" "}
        <code>BATON_TOKEN</code>, or its own <code>token</code> option.
      </Snippet>
      <Snippet id="install-claude" title="3b. Or files in one repository" text={s.installClaude}>
        Shows how <code>baton install claude</code> would merge the hooks into <code>.claude/settings.json</code> and the MCP
        server into <code>.mcp.json</code>, keeping what is there; without <code>--dry-run</code> it writes them. The
        entries, to paste by hand:
      </Snippet>
      <Snippet id="install-agents" title="3c. Codex CLI, Gemini CLI, Copilot CLI, opencode" text={s.installAgents}>
        Each merges Baton&apos;s hooks and MCP server into that agent&apos;s own configuration in your home folder, keeping what is
        there (add <code>--dry-run</code> to see the change first; opencode gets a plugin file from this server). It says what
        the agent asks you to confirm, if anything. <code>baton doctor</code> then checks every agent on the machine.
      </Snippet>
      <Snippet id="hooks" title="Claude Code session hooks" where=".claude/settings.json" text={s.settings}>
        At session start the hook fetches the context; at each prompt it adds the learnings relevant to it that the session
        was not given yet; before a compaction it leaves a checkpoint, which the context after it leads with; at session
        end it leaves a handoff and learning candidates. None ever blocks or fails the session. <code>baton</code> must be
        on the PATH Claude Code runs with.
      </Snippet>
      <Snippet id="mcp" title="MCP server" where=".mcp.json" text={s.mcp}>
        Tools for the agent mid-session: search and propose learnings, write a handoff, read task memory, pick up a queued
        session. <code>baton mcp</code> reads the server and token as the hooks do, so no secret lands in the repository,
        and a refused token is said (naming <code>baton login</code>), never a silent failure.
      </Snippet>
    </div>
  );
}

/** Over HTTPS: how to install when a team's own certificate authority signed this server's certificate. */
function TeamCa({ command }: { command: string }) {
  return (
    <>
      {" "}
      If this server&apos;s certificate comes from your team&apos;s own certificate authority, give its PEM file to both (the
      CLI keeps it as <code>caFile</code>, for every command and hook): <code data-testid="install-with-ca">{command}</code>
    </>
  );
}
