import { setInjectionAction } from "@/lib/actions/injection-actions";
import { ActionForm } from "../ui/action-form";

/** Whether session-start hooks inject this project's context; owners pause and resume it. */
export function InjectionForm({ slug, paused, owner }: { slug: string; paused: boolean; owner: boolean }) {
  return (
    <section className="stack-sm" aria-labelledby="injection">
      <h2 id="injection">Context injection</h2>
      <p data-testid="injection-state">
        {paused
          ? "Paused: session-start hooks in this project inject nothing, for every member."
          : "On: session-start hooks inject this project's context."}
      </p>
      {owner ? (
        <ActionForm action={setInjectionAction} fields={{ slug, injectionPaused: String(!paused) }} variant={paused ? "primary" : "secondary"}>
          {paused ? "Resume injection" : "Pause injection"}
        </ActionForm>
      ) : null}
    </section>
  );
}
