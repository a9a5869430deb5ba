"use server";

import { z } from "zod";
import { identityFieldsUpdate, preferencesFieldsUpdate } from "../seeds/seed-file";
import { updateIdentity } from "../seeds/seeds";
import { formAction } from "./form-action";

/** An empty optional field removes what was stored (updateIdentity takes null as "remove"). */
const emptyIsNull = (value: unknown) => (value === "" ? null : value);

const optional = <S extends z.ZodType>(schema: S) => z.preprocess(emptyIsNull, schema);

/**
 * The identity page's form, flat (one input a field, so each error lands beside its input), with the
 * rules of PUT /api/seed; the two names are required by the form, whether or not a seed exists.
 */
const identityForm = z.object({
  aiName: identityFieldsUpdate.aiName.unwrap(),
  principalName: identityFieldsUpdate.principalName.unwrap(),
  catchphrase: optional(identityFieldsUpdate.catchphrase),
  voiceId: optional(identityFieldsUpdate.voiceId),
  responseStyle: optional(preferencesFieldsUpdate.responseStyle),
  timezone: optional(preferencesFieldsUpdate.timezone),
  locale: optional(preferencesFieldsUpdate.locale),
});

const IDENTITY_FIELDS = ["aiName", "principalName", "catchphrase", "voiceId", "responseStyle", "timezone", "locale"] as const;

export const updateIdentityAction = formAction(
  identityForm,
  async ({ responseStyle, timezone, locale, ...identity }, { db, principal }) => {
    await updateIdentity(db, principal, { identity: { ...identity, preferences: { responseStyle, timezone, locale } } });
    return { message: "Identity saved. Agents get it at their next session start." };
  },
  { revalidate: ["/identity"], echo: IDENTITY_FIELDS },
);
