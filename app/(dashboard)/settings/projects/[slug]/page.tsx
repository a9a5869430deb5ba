import type { Metadata } from "next";
import Link from "next/link";
import { AddMatcherForm } from "@/components/settings/add-matcher-form";
import { AddMemberForm } from "@/components/settings/add-member-form";
import { InjectionForm } from "@/components/settings/injection-form";
import { MemberRoleForm } from "@/components/settings/member-role-form";
import { ActionForm } from "@/components/ui/action-form";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { removeMatcherAction } from "@/lib/actions/matcher-actions";
import { removeMemberAction } from "@/lib/actions/member-actions";
import { requireUser } from "@/lib/auth/session";
import { orNotFound } from "@/lib/dashboard/load-project";
import { listProjectMatchers } from "@/lib/projects/matchers";
import { createUserCommand, listMembers } from "@/lib/projects/members";
import { requireProject } from "@/lib/projects/projects";

type Params = Promise<{ slug: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  return { title: `${(await params).slug} settings` };
}

export default async function ProjectSettingsPage({ params }: { params: Params }) {
  const { slug } = await params;
  const { db, principal, user } = await requireUser();
  const [project, members, matchers] = await orNotFound(() =>
    Promise.all([requireProject(db, principal, slug), listMembers(db, principal, slug), listProjectMatchers(db, principal, slug)]),
  );
  const owner = project.role === "owner";
  return (
    <div className="stack-lg">
      <PageHeader title={`${project.name}: settings`} actions={<Link href={`/projects/${slug}`}>Project overview →</Link>}>
        <p>
          <code>{slug}</code> · your role: <strong data-testid="your-role">{project.role}</strong>.{" "}
          {owner ? "As an owner you manage its members and matchers." : "Only its owners change members and matchers."}
        </p>
      </PageHeader>
      <InjectionForm slug={slug} paused={project.injectionPaused} owner={owner} />
      <MembersSection slug={slug} members={members} owner={owner} userId={user.id} />
      <MatchersSection slug={slug} matchers={matchers} owner={owner} />
    </div>
  );
}

type Members = Awaited<ReturnType<typeof listMembers>>;
type Matchers = Awaited<ReturnType<typeof listProjectMatchers>>;

/** Who is in the project; an owner changes roles, removes and adds members here. */
function MembersSection({ slug, members, owner, userId }: { slug: string; members: Members; owner: boolean; userId: string }) {
  return (
    <section className="stack" aria-labelledby="members">
      <h2 id="members">Members</h2>
      <DataTable label="Members" columns={["Name", "Email", "Role"]} actions={owner}>
        {members.map((m) => (
          <tr key={m.userId}>
            <td>
              {m.name}
              {m.userId === userId ? <span className="muted"> (you)</span> : null}
            </td>
            <td>{m.email}</td>
            <td>{owner ? <MemberRoleForm slug={slug} userId={m.userId} email={m.email} role={m.role} /> : m.role}</td>
            {owner ? (
              <td>
                <ActionForm action={removeMemberAction} fields={{ slug, userId: m.userId }} variant="danger">
                  Remove<span className="visually-hidden"> {m.email}</span>
                </ActionForm>
              </td>
            ) : null}
          </tr>
        ))}
      </DataTable>
      {owner ? (
        <div className="card stack-sm">
          <h3>Add a member</h3>
          <AddMemberForm slug={slug} />
          <p className="hint">
            Someone without an account yet: whoever runs this server creates it with{" "}
            <code>{createUserCommand("their@email")}</code>, then you add them here. (Baton sends no mail, so there are no
            pending invitations.)
          </p>
        </div>
      ) : null}
    </section>
  );
}

/** The remotes and directories that find this project when a hook does not name one. */
function MatchersSection({ slug, matchers, owner }: { slug: string; matchers: Matchers; owner: boolean }) {
  return (
    <section className="stack" aria-labelledby="matchers">
      <h2 id="matchers">Matchers</h2>
      <p className="muted">
        When a hook does not name a project, the context route finds it from the session&apos;s git remote or working
        directory. A remote match wins over a directory; a longer directory match over a shorter.
      </p>
      {matchers.length ? (
        <DataTable label="Matchers" columns={["Match on", "Pattern"]} actions={owner}>
          {matchers.map((m) => (
            <tr key={m.id}>
              <td>{m.kind === "cwd" ? "working directory" : "git remote"}</td>
              <td>
                <code>{m.pattern}</code>
              </td>
              {owner ? (
                <td>
                  <ActionForm action={removeMatcherAction} fields={{ slug, id: m.id }} variant="danger">
                    Remove<span className="visually-hidden"> {m.pattern}</span>
                  </ActionForm>
                </td>
              ) : null}
            </tr>
          ))}
        </DataTable>
      ) : (
        <EmptyState title="No matchers.">
          <p>
            {owner ? "Add the repository's git remote below" : "An owner can add the repository's git remote"}; until then a
            session finds this project only by name, or by a directory called <code>{slug}</code>.
          </p>
        </EmptyState>
      )}
      {owner ? (
        <div className="card stack-sm">
          <h3>Add a matcher</h3>
          <AddMatcherForm slug={slug} />
        </div>
      ) : null}
    </section>
  );
}
