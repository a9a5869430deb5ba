import type { Metadata } from "next";
import Link from "next/link";
import { AddMatcherForm } from "@/components/settings/add-matcher-form";
import { InjectionForm } from "@/components/settings/injection-form";
import { InviteMemberForm } from "@/components/settings/invite-member-form";
import { MemberRoleForm } from "@/components/settings/member-role-form";
import { LinkOnceForm } from "@/components/ui/link-once-form";
import { ActionForm } from "@/components/ui/action-form";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { removeMatcherAction } from "@/lib/actions/matcher-actions";
import { renewInvitationLinkAction, revokeInvitationAction } from "@/lib/actions/invitation-actions";
import { leaveProjectAction, removeMemberAction } from "@/lib/actions/member-actions";
import { requireUser } from "@/lib/auth/session";
import { utcDay } from "@/lib/context/pack/relative-time";
import { orNotFound } from "@/lib/dashboard/load-project";
import { listProjectMatchers } from "@/lib/projects/matchers";
import { listProjectInvitations } from "@/lib/projects/invitations";
import { listMembers } from "@/lib/projects/members";
import { requireProject } from "@/lib/projects/projects";
import { INVITATION_LINK_DAYS, type InvitationMailState } from "@/lib/rules";

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
  const invitations = owner ? await listProjectInvitations(db, principal, slug) : [];
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
      {owner ? <InvitationsSection slug={slug} invitations={invitations} /> : null}
      <LeaveSection slug={slug} />
      <MatchersSection slug={slug} matchers={matchers} owner={owner} />
    </div>
  );
}

type Members = Awaited<ReturnType<typeof listMembers>>;
type Invitations = Awaited<ReturnType<typeof listProjectInvitations>>;
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
          <h3>Invite someone</h3>
          <InviteMemberForm slug={slug} />
          <p className="hint">
            You get a link to send them (mailed too when this server mails): it works once, for {INVITATION_LINK_DAYS} days.
            Someone without an account creates one there with their own password; someone with one accepts there, on their
            Baton home page or with <code>baton invites accept {slug}</code>. Until then nothing of theirs reaches this project.
          </p>
        </div>
      ) : null}
    </section>
  );
}

/** How an invitation's link stands: its expiry, and how its mail went when this server mails. */
function LinkState({ expiresAt, live, mailState }: { expiresAt: Date | null; live: boolean; mailState: InvitationMailState | null }) {
  // An invitation from before links existed has none until an owner makes one.
  if (!expiresAt) return <span className="muted">no link yet: make one</span>;
  if (!live) return <span className="muted">expired: make a new link</span>;
  const until = <time dateTime={expiresAt.toISOString()}>{utcDay(expiresAt)}</time>;
  const mail = { sending: "mailing…", sent: "mailed", failed: "not mailed, copy the link" } as const;
  return (
    <>
      until {until}
      {mailState ? <span className={mailState === "failed" ? "field-error" : "muted"}> · {mail[mailState]}</span> : null}
    </>
  );
}

/** Invitations not yet answered (owners): who, as what, invited by whom, the link; an owner can make a new link or revoke one. */
function InvitationsSection({ slug, invitations }: { slug: string; invitations: Invitations }) {
  return (
    <section className="stack" aria-labelledby="invitations">
      <h2 id="invitations">Pending invitations</h2>
      {invitations.length ? (
        <DataTable label="Pending invitations" columns={["Email", "Role", "Invited by", "Sent", "Link"]} actions>
          {invitations.map((i) => (
            <tr key={i.id}>
              <td>{i.email}</td>
              <td>{i.role}</td>
              <td>{i.invitedBy?.name ?? "a former account"}</td>
              <td>
                <time dateTime={i.createdAt.toISOString()}>{utcDay(i.createdAt)}</time>
              </td>
              <td>
                <LinkState expiresAt={i.linkExpiresAt} live={i.linkLive} mailState={i.mailState} />
              </td>
              <td>
                <LinkOnceForm action={renewInvitationLinkAction} fields={{ slug, id: i.id }} label="New link" email={i.email} testId="invitation-link" />
                <ActionForm action={revokeInvitationAction} fields={{ slug, id: i.id }} variant="danger">
                  Revoke<span className="visually-hidden"> the invitation of {i.email}</span>
                </ActionForm>
              </td>
            </tr>
          ))}
        </DataTable>
      ) : (
        <p className="muted">No invitations waiting for an answer.</p>
      )}
    </section>
  );
}

/** Anyone may leave; the last owner is told to hand ownership on first. */
function LeaveSection({ slug }: { slug: string }) {
  return (
    <section className="stack-sm" aria-labelledby="leave">
      <h2 id="leave">Leave this project</h2>
      <p className="muted">Its handoffs, sessions and learnings stop reaching your agents, and yours stop reaching it.</p>
      <ActionForm action={leaveProjectAction} fields={{ slug }} variant="danger">
        Leave {slug}
      </ActionForm>
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
