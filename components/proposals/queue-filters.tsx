import { PERSONAL_ONLY } from "@/lib/rules";
import { ProjectSelect, type ProjectOption } from "../projects/project-select";

/** The queue's order and project filter: a GET form, so it works without JavaScript and the address can be shared. */
export function QueueFilters({ sort, project, projects }: { sort: string; project: string | undefined; projects: ProjectOption[] }) {
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
      <ProjectSelect projects={projects} defaultValue={project ?? ""}>
        <option value="">All (personal and projects)</option>
        <option value={PERSONAL_ONLY}>Personal only</option>
      </ProjectSelect>
      <button type="submit" className="btn btn-secondary">
        Show
      </button>
    </form>
  );
}
