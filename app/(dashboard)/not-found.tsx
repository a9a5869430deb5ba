import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";

/** A dashboard page that does not exist, or a project the user is not a member of (the two look the same on purpose). */
export default function DashboardNotFound() {
  return (
    <div className="stack-lg">
      <h1>Not found</h1>
      <EmptyState title="Nothing here.">
        <p>
          This page does not exist, or it belongs to a project you are not a member of. Ask one of its owners to add you, or go
          back to your projects.
        </p>
        <p className="not-found-actions">
          <Link href="/" className="btn btn-primary">
            Back to your projects
          </Link>
        </p>
      </EmptyState>
    </div>
  );
}
