import type { Metadata } from "next";
import { ApproveLoginForm } from "@/components/connect/approve-login-form";
import { ErrorNoticePage } from "@/components/ui/error-notice";
import { PageHeader } from "@/components/ui/page-header";
import { findCliLogin, type CliLoginView } from "@/lib/auth/cli-login";
import { requireUser } from "@/lib/auth/session";
import { orApiError } from "@/lib/dashboard/or-api-error";
import { one } from "@/lib/dashboard/search-params";
import { listProjects } from "@/lib/projects/projects";

type Search = Promise<Record<string, string | string[] | undefined>>;

export const metadata: Metadata = { title: "Approve a baton login" };

const TITLE = "Approve a baton login";

function CodeForm({ code }: { code: string }) {
  return (
    <form method="get" className="form-row">
      <div className="field">
        <label htmlFor="code">The code your terminal shows</label>
        <input id="code" name="code" defaultValue={code} placeholder="ABCD-EFGH" autoComplete="off" spellCheck={false} required />
      </div>
      <button type="submit" className="btn btn-primary">
        Continue
      </button>
    </form>
  );
}

const NOT_PENDING: Record<Exclude<CliLoginView["state"], "pending">, (code: string) => string> = {
  unknown: (code) => `No sign-in code ${code} on this server. Check it against your terminal, or run \`baton login\` again.`,
  expired: (code) => `The code ${code} expired. Run \`baton login\` again for a new one.`,
  answered: (code) => `The code ${code} was answered already: each code is approved or denied once.`,
};

const ago = (date: Date) => {
  const minutes = Math.floor((Date.now() - date.getTime()) / 60_000);
  return minutes < 1 ? "less than a minute ago" : `${minutes} min ago`;
};

/**
 * Where `baton login` sends the person (…/connect/device?code=ABCD-EFGH, signing in first when needed):
 * the code, the machine that asked, and the token it would get, to approve or deny.
 */
export default async function DeviceLoginPage({ searchParams }: { searchParams: Search }) {
  const typed = one((await searchParams).code).slice(0, 40);
  const { db, user, principal } = await requireUser();
  const intro = (
    <PageHeader title={TITLE}>
      <code>baton login</code> on a machine of yours asks for an API token. Approve it only when you ran it yourself, just
      now, and your terminal shows the same code.
    </PageHeader>
  );
  if (!typed) {
    return (
      <div className="stack-lg">
        {intro}
        <CodeForm code="" />
      </div>
    );
  }
  const view = await orApiError(() => findCliLogin(db, user.id, typed));
  if (!("state" in view)) return <ErrorNoticePage title={TITLE} message={view.message} backHref="/" backLabel="Back to your projects" />;
  if (view.state !== "pending") {
    return (
      <div className="stack-lg">
        {intro}
        <p className="notice notice-error" role="alert">
          {NOT_PENDING[view.state](view.shownCode)}
        </p>
        <CodeForm code="" />
      </div>
    );
  }
  const { login } = view;
  const projects = await listProjects(db, principal);
  return (
    <div className="stack-lg">
      {intro}
      <section className="card stack">
        <p className="user-code" data-testid="user-code">
          {login.shownCode}
        </p>
        <p className="muted" data-testid="login-machine">
          Asked by <strong>{login.machine}</strong> from {login.address || "an unknown address"}, {ago(login.createdAt)}. The
          token will be yours ({user.email}).
        </p>
        <ApproveLoginForm code={login.shownCode} defaultName={`${login.machine} (baton login)`.slice(0, 100)} projects={projects.map((p) => ({ slug: p.slug, name: p.name }))} />
      </section>
    </div>
  );
}
