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
          <code>baton</code> CLI this server hands out. Make a write token in{" "}
          <Link href="/settings/tokens">API tokens</Link> first.
        </p>
      </PageHeader>
      <Snippet id="install" title="1. The CLI, from this server" text={s.install}>
        Puts <code>baton</code> in <code>~/.local/bin</code> (it needs Node.js 20 or newer, nothing else) and records this
        server in <code>~/.config/baton/config.json</code>. Run it again to update; the CLI says when this server runs a
        newer version.
      </Snippet>
      <Snippet id="token" title="2. Your token" where="~/.config/baton/config.json" text={s.userConfig}>
        Add the <code>token</code> line; install.sh wrote the <code>url</code> and keeps both when it runs again. Or set them
        in the environment instead:{" "}
        <code>{s.env}</code>.
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
        session. Claude Code reads the token from <code>BATON_TOKEN</code>, so no secret lands in the repository.
      </Snippet>
    </div>
  );
}
