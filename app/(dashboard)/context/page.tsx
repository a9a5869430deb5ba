import type { Metadata } from "next";
import { z } from "zod";
import { SectionChart } from "@/components/charts/section-chart";
import { PreviewForm } from "@/components/context/preview-form";
import { PageHeader } from "@/components/ui/page-header";
import { ApiError } from "@/lib/api/errors";
import { requireUser } from "@/lib/auth/session";
import { previewContext, type ContextPreview } from "@/lib/dashboard/preview-context";
import { one } from "@/lib/dashboard/search-params";
import { serverOrigin } from "@/lib/dashboard/server-origin";
import { listProjects } from "@/lib/projects/projects";

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
  const values: Record<string, string> = { budget: "2000", maxChars: "9500" };
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
  const { built, query, project } = preview;
  const left = built.sections.filter((s) => !s.included || s.omitted > 0);
  return (
    <>
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
      <section className="card stack" aria-labelledby="sections">
        <h2 id="sections">Sections</h2>
        <div className="grid-2">
          <SectionChart
            id="section-chart"
            budget={query.budget}
            sections={built.sections.map((s) => ({ ...s, label: sectionLabels[s.name] ?? s.name }))}
          />
          <div className="stack-sm">
            <h3>Left out</h3>
            {left.length ? (
              <ul className="plain-list" data-testid="left-out">
                {left.map((s) => (
                  <li key={s.name}>
                    {sectionLabels[s.name] ?? s.name}: {s.included ? `shortened, ${items(s.omitted)} left out` : `dropped${s.omitted ? ` (${items(s.omitted)})` : ""}`}
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
          <table className="table table-compact" aria-label="Tokens per section">
            <thead>
              <tr>
                <th scope="col">Section</th>
                <th scope="col">Tokens</th>
                <th scope="col">Included</th>
                <th scope="col">Items left out</th>
              </tr>
            </thead>
            <tbody>
              {built.sections.map((s) => (
                <tr key={s.name}>
                  <td>{sectionLabels[s.name] ?? s.name}</td>
                  <td>{s.tokens}</td>
                  <td>{s.included ? "yes" : "no"}</td>
                  <td>{s.omitted}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </section>
      <section className="card stack" aria-labelledby="text">
        <h2 id="text">The text</h2>
        {built.context ? (
          <pre className="block" data-testid="context-text">
            {built.context}
          </pre>
        ) : (
          <p className="muted">Empty: nothing fits in this budget.</p>
        )}
      </section>
    </>
  );
}

function items(n: number): string {
  return n === 1 ? "1 item" : `${n} items`;
}
