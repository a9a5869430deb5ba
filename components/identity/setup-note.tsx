import Link from "next/link";

/**
 * The dashboard's "Baton setup" note, shown on the home page while the user has no identity: the
 * context shows the same note once only (lib/context/pack/render-sections.ts), so this is where it stays.
 */
export function SetupNote() {
  return (
    <section className="notice" aria-labelledby="setup-note-title">
      <p>
        <strong id="setup-note-title">Baton setup</strong>: no seed (AI identity and personal learnings) is stored for you yet, so your agents&apos;
        contexts start without one. Set the identity on the <Link href="/identity">Identity</Link> page, or import a{" "}
        <code>seed.json</code> with <code>baton import seed.json</code>.
      </p>
    </section>
  );
}
