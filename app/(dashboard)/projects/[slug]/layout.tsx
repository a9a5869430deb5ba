import Link from "next/link";
import { ProjectTabs } from "@/components/projects/project-tabs";
import { requireUser } from "@/lib/auth/session";
import { orNotFound } from "@/lib/dashboard/load-project";
import { requireProject } from "@/lib/projects/projects";

export default async function ProjectLayout({ children, params }: { children: React.ReactNode; params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { db, principal } = await requireUser();
  const project = await orNotFound(() => requireProject(db, principal, slug, "read"));
  return (
    <div className="stack-lg">
      <div className="stack-sm">
        <p className="breadcrumb muted">
          <Link href="/">Projects</Link> / <code>{project.slug}</code>
        </p>
        <div className="page-header">
          <h1>{project.name}</h1>
          <span className="badge badge-muted" title="Your role in this project">
            {project.role}
          </span>
        </div>
        <ProjectTabs slug={project.slug} owner={project.role === "owner"} />
      </div>
      {children}
    </div>
  );
}
