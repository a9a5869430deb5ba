import Link from "next/link";

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
