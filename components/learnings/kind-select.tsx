import { KIND_INFO, LEARNING_KINDS } from "@/lib/rules";

type Props = {
  id: string;
  defaultValue: string;
  /** A first option meaning any kind, as a filter offers. */
  anyLabel?: string;
};

/** The learning kinds as a labelled select named `kind`, in the order the rules list them. */
export function KindSelect({ id, defaultValue, anyLabel }: Props) {
  return (
    <div className="field">
      <label htmlFor={id}>Kind</label>
      <select id={id} name="kind" defaultValue={defaultValue}>
        {anyLabel ? <option value="">{anyLabel}</option> : null}
        {LEARNING_KINDS.map((kind) => (
          <option key={kind} value={kind}>
            {KIND_INFO[kind].label}
          </option>
        ))}
      </select>
    </div>
  );
}
