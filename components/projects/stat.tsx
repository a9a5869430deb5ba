import Link from "next/link";

/** One number on a project's overview, with what it counts and where to see more. */
export function Stat({ label, value, href, testId }: { label: string; value: number; href?: string; testId: string }) {
  const body = (
    <>
      <span className="stat-value" data-testid={testId}>
        {value.toLocaleString("en")}
      </span>
      <span className="stat-label">{label}</span>
    </>
  );
  return href ? (
    <Link href={href} className="stat card">
      {body}
    </Link>
  ) : (
    <div className="stat card">{body}</div>
  );
}
