import type { Metadata } from "next";
import { z } from "zod";
import { SectionChart } from "@/components/charts/section-chart";
import { PreviewForm } from "@/components/context/preview-form";
import { DataTable } from "@/components/ui/data-table";
import { PageHeader } from "@/components/ui/page-header";
import { ApiError } from "@/lib/api/errors";
import { requireUser } from "@/lib/auth/session";
import { previewContext, type ContextPreview } from "@/lib/dashboard/preview-context";
import { one } from "@/lib/dashboard/search-params";
import { serverOrigin } from "@/lib/dashboard/server-origin";
import { listProjects } from "@/lib/projects/projects";
import { DEFAULT_CONTEXT_BUDGET, DEFAULT_CONTEXT_MAX_CHARS } from "@/lib/rules";

export const metadata: Metadata = { title: "Context preview" };

type Search = Promise<Record<string, string | string[] | undefined>>;

const FIELDS = ["project", "budget", "maxChars", "mode", "source", "branch", "task", "q", "cwd"] as const;

const sectionLabels: Record<string, string> = {
  setup: "Setup note",
  identity: "Identity",
  task: "Active task memory",
  handoff: "Latest handoff",
  learnings: "Learnings",
  proposals: "Pending proposals",
  state: "Session state",
};

export default async function ContextPreviewPage({ searchParams }: { searchParams: Search }) {
  const { db, principal } = await requireUser();
  const params = await searchParams;
  const values: Record<string, string> = { budget: String(DEFAULT_CONTEXT_BUDGET), maxChars: String(DEFAULT_CONTEXT_MAX_CHARS) };
  for (const f of FIELDS) if (one(params[f])) values[f] = one(params[f]).trim();
  const projects = await listProjects(db, principal);

  let preview: ContextPreview | null = null;
  const errors: Record<string, string> = {};
  let failure: string | null = null;
  try {
    const input = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));
    preview = await previewContext(db, principal, input, { dashboardUrl: await serverOrigin() });
  } catch (error) {
    if (error instanceof z.ZodError) for (const issue of error.issues) errors[String(issue.path[0])] ??= issue.message;
    else if (error instanceof ApiError) failure = error.message;
    else throw error;
  }
  return (
    <div className="stack-lg">
      <PageHeader title="Context preview">
        Exactly what an agent receives at session start for these parameters (the text of <code>GET /api/context</code>), what each
        section costs in tokens, and what did not fit. A preview is not counted as context served.
      </PageHeader>
      <PreviewForm values={values} projects={projects.map((p) => ({ slug: p.slug, name: p.name }))} errors={errors} />
      {failure || Object.keys(errors).length ? (
        <p className="notice notice-error" role="alert">
          {failure ?? "Check the highlighted fields."}
        </p>
      ) : null}
      {preview ? <PreviewResult preview={preview} /> : null}
    </div>
  );
}

function PreviewResult({ preview }: { preview: ContextPreview }) {
  return (
    <>
      <Totals preview={preview} />
      <Sections preview={preview} />
      <section className="card stack" aria-labelledby="text">
        <h2 id="text">The text</h2>
        {preview.built.context ? (
          <pre className="block" data-testid="context-text">
            {preview.built.context}
          </pre>
        ) : (
          <p className="muted">Empty: nothing fits in this budget.</p>
        )}
      </section>
    </>
  );
}

/** Tokens and characters against their limits, learnings shown, and the project found. */
function Totals({ preview: { built, query, project } }: { preview: ContextPreview }) {
  return (
    <div className="stats" aria-label="Totals">
      <div className="stat card">
        <span className="stat-value" data-testid="preview-tokens">
          {built.tokenEstimate.toLocaleString("en")}
        </span>
        <span className="stat-label">of {query.budget.toLocaleString("en")} tokens</span>
      </div>
      <div className="stat card">
        <span className="stat-value">{built.context.length.toLocaleString("en")}</span>
        <span className="stat-label">of {query.maxChars.toLocaleString("en")} characters</span>
      </div>
      <div className="stat card">
        <span className="stat-value" data-testid="preview-learnings">
          {built.learningsShown} / {built.learningsTotal}
        </span>
        <span className="stat-label">learnings shown</span>
      </div>
      <div className="stat card">
        <span className="stat-value stat-value-text">{project ? project.slug : "none"}</span>
        <span className="stat-label">project</span>
      </div>
    </div>
  );
}

/** What each section costs, as a chart and as numbers, and what was shortened or dropped. */
function Sections({ preview: { built, query } }: { preview: ContextPreview }) {
  const left = built.sections.filter((s) => !s.included || s.omitted > 0);
  return (
    <section className="card stack" aria-labelledby="sections">
      <h2 id="sections">Sections</h2>
      <div className="grid-2">
        <SectionChart id="section-chart" budget={query.budget} sections={built.sections.map((s) => ({ ...s, label: sectionLabel(s.name) }))} />
        <div className="stack-sm">
          <h3>Left out</h3>
          {left.length ? (
            <ul className="plain-list" data-testid="left-out">
              {left.map((s) => (
                <li key={s.name}>
                  {sectionLabel(s.name)}: {s.included ? `shortened, ${items(s.omitted)} left out` : `dropped${s.omitted ? ` (${items(s.omitted)})` : ""}`}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted" data-testid="left-out">
              Nothing: everything fits in the budget.
            </p>
          )}
        </div>
      </div>
      <details className="chart-data">
        <summary>Show the numbers</summary>
        <DataTable label="Tokens per section" columns={["Section", "Tokens", "Included", "Items left out"]} compact>
          {built.sections.map((s) => (
            <tr key={s.name}>
              <td>{sectionLabel(s.name)}</td>
              <td>{s.tokens}</td>
              <td>{s.included ? "yes" : "no"}</td>
              <td>{s.omitted}</td>
            </tr>
          ))}
        </DataTable>
      </details>
    </section>
  );
}

function sectionLabel(name: string): string {
  return sectionLabels[name] ?? name;
}

function items(n: number): string {
  return n === 1 ? "1 item" : `${n} items`;
}
