"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/**
 * A top-bar link marked aria-current="page" while the page shown belongs to its section: its own path,
 * anything under it, or anything under one of `sections` (Projects is "/" but owns /projects/…).
 */
export function NavLink({ href, sections = [], children }: { href: string; sections?: string[]; children: React.ReactNode }) {
  const pathname = usePathname();
  const under = (base: string) => pathname === base || pathname.startsWith(`${base}/`);
  const current = pathname === href || (href !== "/" && under(href)) || sections.some(under);
  return (
    <Link href={href} aria-current={current ? "page" : undefined}>
      {children}
    </Link>
  );
}
