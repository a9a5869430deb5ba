import Link from "next/link";
import { signOutAction } from "@/lib/actions/auth-actions";
import { requireUser } from "@/lib/auth/session";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const { user } = await requireUser();
  return (
    <div className="app-shell">
      <header className="topbar">
        <Link href="/" className="brand">
          <span className="brand-mark" aria-hidden>
            ◆
          </span>{" "}
          Baton
        </Link>
        <nav aria-label="Main">
          <Link href="/">Projects</Link>
          <Link href="/settings/tokens">API tokens</Link>
        </nav>
        <form action={signOutAction} className="account">
          <span className="muted" data-testid="signed-in-as">
            {user.email}
          </span>
          <button type="submit" className="btn btn-secondary">
            Sign out
          </button>
        </form>
      </header>
      <main className="content">{children}</main>
    </div>
  );
}
