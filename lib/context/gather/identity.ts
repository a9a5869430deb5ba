import type { ContextIdentity } from "../context-types";

/**
 * A seed's identity as a context shows it, or null when it has none worth the name (no AI name or no
 * principal): then the user is due the setup note, in their first context and in the dashboard.
 */
export function identityOf(raw: Record<string, unknown> | undefined): ContextIdentity | null {
  if (!raw || typeof raw.aiName !== "string" || typeof raw.principalName !== "string") return null;
  const prefs = (raw.preferences ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);
  return {
    aiName: raw.aiName,
    principalName: raw.principalName,
    catchphrase: str(raw.catchphrase),
    voiceId: str(raw.voiceId),
    preferences: { responseStyle: str(prefs.responseStyle), timezone: str(prefs.timezone), locale: str(prefs.locale) },
  };
}
