"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** A project's sections; the one shown is marked current. The audit trail is its owners' alone. */
export function ProjectTabs({ slug, owner }: { slug: string; owner: boolean }) {
  const pathname = usePathname();
  const base = `/projects/${slug}`;
  const tabs = [
    { href: base, label: "Overview" },
    { href: `${base}/handoffs`, label: "Handoffs" },
    { href: `${base}/sessions`, label: "Sessions" },
    { href: `${base}/tidy`, label: "Tidy up" },
    ...(owner ? [{ href: `${base}/audit`, label: "Audit trail" }] : []),
    { href: `/settings/projects/${slug}`, label: "Settings" },
  ];
  return (
    <nav className="tabs" aria-label="Project">
      {tabs.map((t) => (
        <Link key={t.href} href={t.href} aria-current={pathname === t.href ? "page" : undefined}>
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
