import { CONTEXT_MODES, MAX_CONTEXT_BUDGET, MAX_CONTEXT_CHARS, MIN_CONTEXT_BUDGET, MIN_CONTEXT_CHARS, type ContextMode } from "@/lib/rules";
import { ProjectSelect, type ProjectOption } from "../projects/project-select";

type Values = Record<string, string>;
type Props = { values: Values; projects: ProjectOption[]; errors: Record<string, string> };

/** How the form names each mode: complement is what the hook asks for under PAI, which injects identity itself. */
const MODE_LABELS: Record<ContextMode, string> = {
  full: "full",
  complement: "complement (no identity, as under PAI)",
};

function Text({ name, label, values, errors, hint, type = "text", ...rest }: { name: string; label: string; values: Values; errors: Record<string, string>; hint?: string; type?: string; min?: number; max?: number; step?: number; placeholder?: string }) {
  const described = [hint ? `${name}-hint` : "", errors[name] ? `${name}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <input id={name} name={name} type={type} defaultValue={values[name] ?? ""} aria-invalid={errors[name] ? true : undefined} aria-describedby={described} {...rest} />
      {hint ? (
        <p id={`${name}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
      {errors[name] ? (
        <p id={`${name}-error`} className="field-error">
          {errors[name]}
        </p>
      ) : null}
    </div>
  );
}

/** The preview's parameters as a GET form: the address of a preview is a link someone else can open. */
export function PreviewForm({ values, projects, errors }: Props) {
  return (
    <form method="get" action="/context" className="card stack" aria-label="Context parameters">
      <div className="form-row form-row-top">
        <ProjectSelect projects={projects} defaultValue={values.project ?? ""}>
          <option value="">None (personal, or found from the directory)</option>
        </ProjectSelect>
        <Text
          name="budget"
          label="Token budget"
          type="number"
          min={MIN_CONTEXT_BUDGET}
          max={MAX_CONTEXT_BUDGET}
          step={100}
          values={values}
          errors={errors}
          hint={`${MIN_CONTEXT_BUDGET.toLocaleString("en")} to ${MAX_CONTEXT_BUDGET.toLocaleString("en")}`}
        />
        <Text name="maxChars" label="Character limit" type="number" min={MIN_CONTEXT_CHARS} max={MAX_CONTEXT_CHARS} step={100} values={values} errors={errors} hint="Claude Code keeps 10,000" />
        <div className="field">
          <label htmlFor="mode">Mode</label>
          <select id="mode" name="mode" defaultValue={values.mode ?? "full"}>
            {CONTEXT_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {MODE_LABELS[mode]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="source">Session start</label>
          <select id="source" name="source" defaultValue={values.source ?? ""}>
            <option value="">startup (default)</option>
            <option value="resume">resume</option>
            <option value="clear">clear</option>
            <option value="compact">compact</option>
            <option value="fork">fork</option>
          </select>
        </div>
      </div>
      <fieldset className="fieldset">
        <legend>Hints (what the hook sends to rank learnings)</legend>
        <div className="form-row form-row-top">
          <Text name="branch" label="Branch" values={values} errors={errors} placeholder="feat/login" />
          <Text name="task" label="Task id" values={values} errors={errors} placeholder="task-368" />
          <Text name="q" label="Free text" values={values} errors={errors} placeholder="recent commit subjects" />
          <Text name="cwd" label="Working directory" values={values} errors={errors} placeholder="/home/ana/src/web" />
        </div>
      </fieldset>
      <div>
        <button type="submit" className="btn btn-primary">
          Preview
        </button>
      </div>
    </form>
  );
}
