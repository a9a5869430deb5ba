import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { LinkOnceForm } from "@/components/ui/link-once-form";
import { ActionForm } from "@/components/ui/action-form";
import { DataTable } from "@/components/ui/data-table";
import { disableUserAction, enableUserAction, resetLinkAction, setUserRoleAction } from "@/lib/actions/admin-actions";
import { listUsers, type AdminUserOut } from "@/lib/admin/users";
import { isExpectedError } from "@/lib/api/errors";
import { requireUser } from "@/lib/auth/session";
import { relativeTime, utcMinute } from "@/lib/context/pack/relative-time";

export const metadata: Metadata = { title: "Users" };

/**
 * The server's users, for admins: who they are, when they were last active, their projects; promote,
 * demote, disable, enable, make a password reset link. Anyone else gets the dashboard's 404, as for a
 * page that does not exist (and every action refuses them again on the server).
 */
export default async function AdminUsersPage({ searchParams }: { searchParams: Promise<{ page?: string }> }) {
  const { user, db, principal } = await requireUser();
  if (!user.isAdmin) notFound();
  const { page: pageParam } = await searchParams;
  const page = await listUsers(db, principal, { page: pageParam }).catch((error: unknown) => {
    // A page number that is not one is a page that does not exist.
    if (isExpectedError(error)) notFound();
    throw error;
  });
  const now = new Date();
  return (
    <div className="stack-lg">
      <section>
        <h1>Users</h1>
        <p className="muted">
          {page.total} user{page.total === 1 ? "" : "s"} on this server. Last active is the latest of an API token used (to the minute), a dashboard
          sign-in (refreshed daily) and a context served. Disabling signs a user out everywhere and revokes their API tokens; nothing they wrote is
          deleted. New users join by invitation (a project&apos;s settings) or <code>baton admin create-user</code>.
        </p>
      </section>
      <DataTable label="Users" columns={["Name", "Email", "Role", "Created", "Last active", "Projects", "Status"]} actions>
        {page.items.map((u) => (
          <UserRow key={u.id} u={u} you={u.id === user.id} now={now} />
        ))}
      </DataTable>
      {page.pages > 1 ? (
        <nav aria-label="Pages" className="inline-form">
          {page.page > 1 ? <Link href={`/admin?page=${page.page - 1}`}>Previous</Link> : null}
          <span className="muted">
            Page {page.page} of {page.pages}
          </span>
          {page.page < page.pages ? <Link href={`/admin?page=${page.page + 1}`}>Next</Link> : null}
        </nav>
      ) : null}
    </div>
  );
}

/** One user: who, since when, last active, projects, status, and what an admin can do about them (not to themself). */
function UserRow({ u, you, now }: { u: AdminUserOut; you: boolean; now: Date }) {
  return (
    <tr data-testid="user-row" data-email={u.email}>
      <td>{u.name}</td>
      <td>{u.email}</td>
      <td>{u.role}</td>
      <td>{utcMinute(u.createdAt)}</td>
      <td title={u.lastActiveAt ? utcMinute(u.lastActiveAt) : undefined}>{u.lastActiveAt ? relativeTime(u.lastActiveAt, now) : "never"}</td>
      <td>{u.projects.length ? u.projects.map((p) => `${p.slug} (${p.role})`).join(", ") : "none"}</td>
      <td data-testid="user-status">{u.disabled ? "disabled" : "active"}</td>
      <td>
        {you ? (
          <span className="muted">you</span>
        ) : (
          <div className="stack-sm">
            <ActionForm action={setUserRoleAction} fields={{ userId: u.id, role: u.role === "admin" ? "member" : "admin" }}>
              {u.role === "admin" ? "Make member" : "Make admin"}
              <span className="visually-hidden"> {u.email}</span>
            </ActionForm>
            {u.disabled ? (
              <ActionForm action={enableUserAction} fields={{ userId: u.id }}>
                Enable<span className="visually-hidden"> {u.email}</span>
              </ActionForm>
            ) : (
              <>
                <ActionForm action={disableUserAction} fields={{ userId: u.id }} variant="danger">
                  Disable<span className="visually-hidden"> {u.email}</span>
                </ActionForm>
                <LinkOnceForm action={resetLinkAction} fields={{ userId: u.id }} label="Reset link" email={u.email} testId="reset-link" />
              </>
            )}
          </div>
        )}
      </td>
    </tr>
  );
}
