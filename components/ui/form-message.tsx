import type { FormState } from "@/lib/actions/form-state";

export function FormMessage({ state }: { state: FormState<unknown> }) {
  if (!state.message) return null;
  return (
    <p className={state.ok ? "notice notice-ok" : "notice notice-error"} role={state.ok ? "status" : "alert"}>
      {state.message}
    </p>
  );
}
