import { ProjectSelect, type ProjectOption } from "../projects/project-select";
import { KindSelect } from "./kind-select";

type Props = { q: string; kind: string; project: string; projects: ProjectOption[] };

/** Search and filters as a GET form: works without JavaScript, and the address can be bookmarked or shared. */
export function LearningFilters({ q, kind, project, projects }: Props) {
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
      <button type="submit" className="btn btn-primary">
        Search
      </button>
    </form>
  );
}
