import { completeSessionAction, releaseSessionAction } from "@/lib/actions/session-actions";
import { ActionForm } from "../ui/action-form";

/** Complete and Release for a claimed document, for whoever may finish it (the page decides who). */
export function SessionActions({ id, slug }: { id: string; slug: string }) {
  const fields = { id, slug };
  return (
    <div className="row-actions session-actions">
      <ActionForm action={completeSessionAction} fields={fields} variant="primary">
        Complete
      </ActionForm>
      <ActionForm action={releaseSessionAction} fields={fields}>
        Release
      </ActionForm>
    </div>
  );
}
