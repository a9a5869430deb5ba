import type { Metadata } from "next";
import Link from "next/link";
import { IdentityForm, type IdentityValues } from "@/components/identity/identity-form";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/session";
import { RESPONSE_STYLES } from "@/lib/seeds/seed-file";
import { getIdentity } from "@/lib/seeds/seeds";

export const metadata: Metadata = { title: "Identity" };

/** A stored field as the form shows it: text, or "" when absent or not text. */
function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function formValues(identity: Record<string, unknown> | null): IdentityValues {
  const preferences = (identity?.preferences ?? {}) as Record<string, unknown>;
  return {
    aiName: text(identity?.aiName),
    principalName: text(identity?.principalName),
    catchphrase: text(identity?.catchphrase),
    voiceId: text(identity?.voiceId),
    responseStyle: text(preferences.responseStyle),
    timezone: text(preferences.timezone),
    locale: text(preferences.locale),
  };
}

export default async function IdentityPage() {
  const { db, principal } = await requireUser();
  const identity = await getIdentity(db, principal);
  return (
    <div className="stack-lg">
      <PageHeader title="Identity">
        Who your agent is and how it should answer: the identity section of your seed, at the top of every context your agents
        receive. {identity ? null : <>No seed is stored yet: saving this form creates one (or import a <code>seed.json</code> with <code>baton import</code>).</>}
      </PageHeader>
      <section className="card">
        <IdentityForm current={formValues(identity)} responseStyles={RESPONSE_STYLES} />
      </section>
      <p className="hint">
        Your learnings live in <Link href="/learnings">Learnings</Link>; the whole seed, as pai-seed&apos;s <code>seed.json</code>, is at{" "}
        <code>GET /api/seed</code>.
      </p>
    </div>
  );
}
