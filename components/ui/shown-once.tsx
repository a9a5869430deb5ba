"use client";

import { CopyButton } from "./copy-button";

/** A secret shown this once (a new token, an invitation link), with its message and a button to copy it. */
export function ShownOnce({ text, message, testId }: { text: string; message: string; testId: string }) {
  return (
    <div className="notice notice-ok new-token" role="status">
      <p>{message}</p>
      <div className="copy-row">
        <code data-testid={testId}>{text}</code>
        <CopyButton text={text} />
      </div>
    </div>
  );
}
