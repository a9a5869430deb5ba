import type { Metadata } from "next";
import Link from "next/link";
import { CreateProjectForm } from "@/components/projects/create-project-form";
import { SetupNote } from "@/components/identity/setup-note";
import { ConnectNote } from "@/components/settings/connect-note";
import { InvitationsList } from "@/components/projects/invitations-list";
import { hasApiToken } from "@/lib/auth/api-tokens";
import { requireUser } from "@/lib/auth/session";
import { identityOf } from "@/lib/context/gather/identity";
import { utcDay } from "@/lib/context/pack/relative-time";
import { listMyInvitations } from "@/lib/projects/invitations";
import { listProjects } from "@/lib/projects/projects";
import { getIdentity } from "@/lib/seeds/seeds";

export const metadata: Metadata = { title: "Projects" };

export default async function ProjectsPage() {
  const { db, principal, user } = await requireUser();
  const [projects, invitations, identity, connected] = await Promise.all([
    listProjects(db, principal),
    listMyInvitations(db, principal),
    getIdentity(db, principal),
    hasApiToken(db, { userId: principal.userId }),
  ]);
  return (
    <div className="stack-lg">
      <section>
        <h1>Projects</h1>
        <p className="muted">Signed in as {user.name}. A project holds a team&apos;s handoffs, session queue and shared learnings.</p>
      </section>
      {connected ? null : <ConnectNote />}
      {identityOf(identity ?? undefined) ? null : <SetupNote />}
      <InvitationsList invitations={invitations} />
      {projects.length ? (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Project</th>
              <th scope="col">Slug</th>
              <th scope="col">Your role</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {projects.map((p) => (
              <tr key={p.id}>
                <td>
                  <Link href={`/projects/${p.slug}`}>{p.name}</Link>
                </td>
                <td>
                  <code>{p.slug}</code>
                </td>
                <td>{p.role}</td>
                <td>
                  <time dateTime={p.createdAt.toISOString()}>{utcDay(p.createdAt)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <div className="empty">
          <p>No projects yet. Create one for the repository your agents work in; its slug is what hooks send.</p>
        </div>
      )}
      <section className="card">
        <h2>New project</h2>
        <CreateProjectForm />
      </section>
    </div>
  );
}
