export default function AuthLayout({ children }: { children: React.ReactNode }) {
  return (
    <main className="auth-shell">
      <div className="auth-card">
        <p className="brand">
          <span className="brand-mark" aria-hidden>
            ◆
          </span>{" "}
          Baton
        </p>
        {children}
      </div>
    </main>
  );
}
