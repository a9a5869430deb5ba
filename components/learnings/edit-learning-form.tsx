"use client";

import { MAX_CONTENT_CHARS } from "@/lib/rules";
import { useActionState } from "react";
import { editLearningAction } from "@/lib/actions/learning-actions";
import { initialFormState } from "@/lib/actions/form-state";
import { FormMessage } from "../ui/form-message";
import { SubmitButton } from "../ui/submit-button";
import { KindSelect } from "./kind-select";

type Props = { id: string; kind: string; content: string; tags: string[] };

/** Kind, text and tags of one learning. */
export function EditLearningForm({ id, kind, content, tags }: Props) {
  const [state, action] = useActionState(editLearningAction, initialFormState);
  const key = (name: string) => `${name}-${id}`;
  return (
    <form action={action} className="stack-sm">
      <input type="hidden" name="id" value={id} />
      <FormMessage state={state} />
      <div className="field">
        <label htmlFor={key("content")}>Text</label>
        <textarea id={key("content")} name="content" rows={3} defaultValue={content} required maxLength={MAX_CONTENT_CHARS} aria-invalid={state.fieldErrors?.content ? true : undefined} />
        {state.fieldErrors?.content ? <p className="field-error">{state.fieldErrors.content}</p> : null}
      </div>
      <div className="form-row">
        <KindSelect id={key("kind")} defaultValue={kind} />
        <div className="field">
          <label htmlFor={key("tags")}>Tags</label>
          <input id={key("tags")} name="tags" defaultValue={tags.join(", ")} placeholder="testing, git" />
        </div>
        <SubmitButton>Save</SubmitButton>
      </div>
    </form>
  );
}
