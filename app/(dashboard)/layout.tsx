import Link from "next/link";
import { NavLink } from "@/components/layout/nav-link";
import { signOutAction } from "@/lib/actions/auth-actions";
import { requireUser } from "@/lib/auth/session";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const { user } = await requireUser();
  return (
    <div className="app-shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        <Link href="/" className="brand">
          <span className="brand-mark" aria-hidden>
            ◆
          </span>{" "}
          Baton
        </Link>
        <nav aria-label="Main">
          <NavLink href="/" sections={["/projects"]}>
            Projects
          </NavLink>
          <NavLink href="/proposals">Proposals</NavLink>
          <NavLink href="/learnings">Learnings</NavLink>
          <NavLink href="/identity">Identity</NavLink>
          <NavLink href="/context">Context preview</NavLink>
          <NavLink href="/settings">Settings</NavLink>
          {user.isAdmin ? <NavLink href="/admin">Users</NavLink> : null}
        </nav>
        <form action={signOutAction} className="account">
          <span className="muted account-email" data-testid="signed-in-as" title={user.email}>
            {user.email}
          </span>
          <button type="submit" className="btn btn-secondary">
            Sign out
          </button>
        </form>
      </header>
      <main className="content" id="main">{children}</main>
    </div>
  );
}

