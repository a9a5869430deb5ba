"use client";

import { useFormStatus } from "react-dom";

type SubmitButtonProps = {
  children: React.ReactNode;
  variant?: "primary" | "secondary" | "danger";
  /** Sent with the form when this button submits it: one form, several answers (approve or deny). */
  name?: string;
  value?: string;
};

export function SubmitButton({ children, variant = "primary", name, value }: SubmitButtonProps) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" className={`btn btn-${variant}`} disabled={pending} aria-busy={pending} name={name} value={value}>
      {children}
    </button>
  );
}
