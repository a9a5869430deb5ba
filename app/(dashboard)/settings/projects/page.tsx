import type { Metadata } from "next";
import Link from "next/link";
import { CreateProjectForm } from "@/components/projects/create-project-form";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/session";
import { listProjects } from "@/lib/projects/projects";

export const metadata: Metadata = { title: "Project settings" };

export default async function ProjectSettingsIndex() {
  const { db, principal } = await requireUser();
  const projects = await listProjects(db, principal);
  return (
    <div className="stack-lg">
      <PageHeader title="Projects and members">
        Who is in each project and with what role, and which directories and git remotes belong to it. Owners change these;
        members and viewers see them.
      </PageHeader>
      {projects.length ? (
        <DataTable label="Your projects" columns={["Project", "Slug", "Your role"]} actions>
          {projects.map((p) => (
            <tr key={p.id}>
              <td>{p.name}</td>
              <td>
                <code>{p.slug}</code>
              </td>
              <td>{p.role}</td>
              <td>
                <Link href={`/settings/projects/${p.slug}`} aria-label={`Members and matchers of ${p.slug}`}>
                  {p.role === "owner" ? "Manage" : "View"}
                </Link>
              </td>
            </tr>
          ))}
        </DataTable>
      ) : (
        <EmptyState title="No projects yet.">
          <p>Create one for the repository your agents work in; its slug is what hooks send.</p>
        </EmptyState>
      )}
      <section className="card" aria-labelledby="new-project">
        <h2 id="new-project">New project</h2>
        <CreateProjectForm />
      </section>
    </div>
  );
}
