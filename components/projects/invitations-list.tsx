import { ActionForm } from "@/components/ui/action-form";
import { DataTable } from "@/components/ui/data-table";
import { acceptInvitationAction, declineInvitationAction } from "@/lib/actions/invitation-actions";
import { utcDay } from "@/lib/context/pack/relative-time";
import type { listMyInvitations } from "@/lib/projects/invitations";

type Invitations = Awaited<ReturnType<typeof listMyInvitations>>;

/** The invitations waiting for the user's answer; nothing at all when there are none. */
export function InvitationsList({ invitations }: { invitations: Invitations }) {
  if (!invitations.length) return null;
  return (
    <section className="card stack-sm" aria-labelledby="your-invitations">
      <h2 id="your-invitations">Invitations</h2>
      <p className="muted">
        You become a member when you accept: the project&apos;s handoffs and learnings then reach your agents, and your
        sessions&apos; handoffs reach the project. Until then nothing flows either way.
      </p>
      <DataTable label="Invitations" columns={["Project", "Role", "Invited by", "Sent"]} actions>
        {invitations.map((i) => (
          <tr key={i.id}>
            <td>
              {i.name} <code>{i.slug}</code>
            </td>
            <td>{i.role}</td>
            <td>{i.invitedBy ? `${i.invitedBy.name} (${i.invitedBy.email})` : "a former account"}</td>
            <td>
              <time dateTime={i.createdAt.toISOString()}>{utcDay(i.createdAt)}</time>
            </td>
            <td>
              <ActionForm action={acceptInvitationAction} fields={{ slug: i.slug }} variant="primary">
                Accept<span className="visually-hidden"> {i.slug}</span>
              </ActionForm>{" "}
              <ActionForm action={declineInvitationAction} fields={{ slug: i.slug }}>
                Decline<span className="visually-hidden"> {i.slug}</span>
              </ActionForm>
            </td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}
