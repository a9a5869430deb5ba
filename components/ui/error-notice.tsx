import Link from "next/link";
import { PageHeader } from "./page-header";

/** A page that could not load what the address asked for (a stale cursor, a project gone): why, and a way back. */
export function ErrorNotice({ message, backHref, backLabel }: { message: string; backHref: string; backLabel: string }) {
  return (
    <div className="notice notice-error stack-sm" role="alert">
      <p>{message}</p>
      <p>
        <Link href={backHref}>{backLabel}</Link>
      </p>
    </div>
  );
}

/** A whole page that could not load: its title, then the notice. */
export function ErrorNoticePage({ title, ...notice }: { title: string; message: string; backHref: string; backLabel: string }) {
  return (
    <div className="stack-lg">
      <PageHeader title={title} />
      <ErrorNotice {...notice} />
    </div>
  );
}
