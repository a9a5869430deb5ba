import type { Metadata } from "next";
import { CreateTokenForm } from "@/components/tokens/create-token-form";
import { DataTable } from "@/components/ui/data-table";
import { SubmitButton } from "@/components/ui/submit-button";
import { revokeTokenAction } from "@/lib/actions/token-actions";
import { listApiTokens } from "@/lib/auth/api-tokens";
import { utcMinute } from "@/lib/context/pack/relative-time";
import { requireUser } from "@/lib/auth/session";
import { listProjects } from "@/lib/projects/projects";

export const metadata: Metadata = { title: "API tokens" };

const when = (date: Date | null): string => (date ? utcMinute(date) : "never");

export default async function TokensPage() {
  const { db, principal, user } = await requireUser();
  const [tokens, projects] = await Promise.all([listApiTokens(db, { userId: user.id }), listProjects(db, principal)]);
  return (
    <div className="stack-lg">
      <section>
        <h1>API tokens</h1>
        <p className="muted">
          Hooks, the CLI and MCP clients send a token as <code>Authorization: Bearer …</code>. Baton keeps only its SHA-256
          hash: copy a new token when it is shown.
        </p>
      </section>
      <section className="card">
        <h2>New token</h2>
        <CreateTokenForm projects={projects.map((p) => ({ slug: p.slug, name: p.name }))} />
      </section>
      {tokens.length ? (
        <DataTable label="Your tokens" columns={["Name", "Token", "Scope", "Projects", "Created", "Last used"]} actions>
          {tokens.map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              <td>
                <code>{t.displayPrefix}…</code>
              </td>
              <td>{t.scope}</td>
              <td>{t.projects.length ? t.projects.join(", ") : "all"}</td>
              <td>{when(t.createdAt)}</td>
              <td>{when(t.lastUsedAt)}</td>
              <td>
                <form action={revokeTokenAction}>
                  <input type="hidden" name="id" value={t.id} />
                  <SubmitButton variant="danger">Revoke {t.name}</SubmitButton>
                </form>
              </td>
            </tr>
          ))}
        </DataTable>
      ) : (
        <div className="empty">
          <p>No tokens yet. Create one for each machine or agent, so you can revoke one without the others.</p>
        </div>
      )}
    </div>
  );
}
