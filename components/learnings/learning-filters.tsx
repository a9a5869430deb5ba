import { ProjectSelect, type ProjectOption } from "../projects/project-select";
import { KindSelect } from "./kind-select";

type Props = { q: string; kind: string; project: string; pinned: boolean; projects: ProjectOption[] };

/** Search and filters as a GET form: works without JavaScript, and the address can be bookmarked or shared. */
export function LearningFilters({ q, kind, project, pinned, projects }: Props) {
  return (
    <form method="get" action="/learnings" className="filters" role="search" aria-label="Search learnings">
      <div className="field">
        <label htmlFor="q">Search</label>
        <input id="q" name="q" type="search" defaultValue={q} placeholder="words from the learning or its tags" />
      </div>
      <KindSelect id="kind" defaultValue={kind} anyLabel="All kinds" />
      <ProjectSelect projects={projects} defaultValue={project}>
        <option value="">All (personal and projects)</option>
      </ProjectSelect>
      <label className="check-label">
        <input type="checkbox" name="pinned" value="true" defaultChecked={pinned} /> Pinned only
      </label>
      <button type="submit" className="btn btn-primary">
        Search
      </button>
    </form>
  );
}
