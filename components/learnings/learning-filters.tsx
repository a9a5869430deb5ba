type Props = { q: string; kind: string; project: string; projects: { slug: string; name: string }[] };

/** Search and filters as a GET form: works without JavaScript, and the address can be bookmarked or shared. */
export function LearningFilters({ q, kind, project, projects }: Props) {
  return (
    <form method="get" action="/learnings" className="filters" role="search" aria-label="Search learnings">
      <div className="field">
        <label htmlFor="q">Search</label>
        <input id="q" name="q" type="search" defaultValue={q} placeholder="words from the learning or its tags" />
      </div>
      <div className="field">
        <label htmlFor="kind">Kind</label>
        <select id="kind" name="kind" defaultValue={kind}>
          <option value="">All kinds</option>
          <option value="pattern">Pattern</option>
          <option value="insight">Insight</option>
          <option value="self_knowledge">Self-knowledge</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="project">Project</label>
        <select id="project" name="project" defaultValue={project}>
          <option value="">All (personal and projects)</option>
          {projects.map((p) => (
            <option key={p.slug} value={p.slug}>
              {p.name} ({p.slug})
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn btn-primary">
        Search
      </button>
    </form>
  );
}
