import Link from "next/link";

/**
 * On the home page while the user has no API token: someone who just joined through an invitation
 * lands in the dashboard, and nothing there said that their agents get nothing until the CLI is
 * signed in on their machine, nor where the commands are.
 */
export function ConnectNote() {
  return (
    <section className="notice" aria-labelledby="connect-note-title" data-testid="connect-note">
      <p>
        <strong id="connect-note-title">Connect your agents</strong>: no coding agent of yours reaches this server yet.{" "}
        <Link href="/settings/connect">Connect an agent</Link> shows the commands, filled with this server&apos;s address: the{" "}
        <code>baton</code> CLI from this server, <code>baton login</code>, then <code>baton install claude</code> (or another
        agent) in your repository.
      </p>
    </section>
  );
}
