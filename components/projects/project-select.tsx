import type { ReactNode } from "react";

export type ProjectOption = { slug: string; name: string };

type Props = {
  projects: ProjectOption[];
  defaultValue: string;
  id?: string;
  label?: string;
  /** The options before the projects: what choosing no project means here. */
  children: ReactNode;
};

/** A labelled select named `project`: the given leading options, then each project as "Name (slug)". */
export function ProjectSelect({ projects, defaultValue, id = "project", label = "Project", children }: Props) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name="project" defaultValue={defaultValue}>
        {children}
        {projects.map((p) => (
          <option key={p.slug} value={p.slug}>
            {p.name} ({p.slug})
          </option>
        ))}
      </select>
    </div>
  );
}
