/** The queue's order and project filter: a GET form, so it works without JavaScript and the address can be shared. */
export function QueueFilters({ sort, project, projects }: { sort: string; project: string | undefined; projects: { slug: string; name: string }[] }) {
  return (
    <form method="get" action="/proposals" className="filters" aria-label="Filter proposals">
      <div className="field">
        <label htmlFor="sort">Order</label>
        <select id="sort" name="sort" defaultValue={sort}>
          <option value="confidence">Most confident first</option>
          <option value="oldest">Oldest first</option>
          <option value="newest">Newest first</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="project">Project</label>
        <select id="project" name="project" defaultValue={project ?? ""}>
          <option value="">All (personal and projects)</option>
          <option value="personal">Personal only</option>
          {projects.map((p) => (
            <option key={p.slug} value={p.slug}>
              {p.name} ({p.slug})
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn btn-secondary">
        Show
      </button>
    </form>
  );
}
