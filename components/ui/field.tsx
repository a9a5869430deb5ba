type FieldProps = {
  label: string;
  name: string;
  type?: string;
  error?: string;
  hint?: string;
  defaultValue?: string;
  required?: boolean;
  autoComplete?: string;
  placeholder?: string;
  autoFocus?: boolean;
  /** Controlled: the value, and what to do when it changes. */
  value?: string;
  onChange?: (event: React.ChangeEvent<HTMLInputElement>) => void;
};

/** A labelled input with its hint and error wired up for screen readers. */
export function Field({ label, name, type = "text", error, hint, ...input }: FieldProps) {
  const describedBy = [hint ? `${name}-hint` : null, error ? `${name}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <input id={name} name={name} type={type} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      {hint ? (
        <p id={`${name}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${name}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
