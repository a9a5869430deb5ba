"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const tabs = [
  { href: "/settings/projects", label: "Projects and members" },
  { href: "/settings/tokens", label: "API tokens" },
  { href: "/settings/connect", label: "Connect an agent" },
  { href: "/settings/account", label: "Your account" },
];

/** The settings sections; the one shown (or the project under it) is marked current. */
export function SettingsTabs() {
  const pathname = usePathname();
  return (
    <nav className="tabs" aria-label="Settings">
      {tabs.map((t) => (
        <Link key={t.href} href={t.href} aria-current={pathname === t.href || pathname.startsWith(`${t.href}/`) ? "page" : undefined}>
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
