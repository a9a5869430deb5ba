import type { ReactNode } from "react";

type Props = {
  id: string;
  title: string;
  /** A link beside the heading, to the page with all of it. */
  more?: ReactNode;
  children: ReactNode;
};

/** A section of a page under its own heading, which also names it for assistive technology. */
export function Panel({ id, title, more, children }: Props) {
  return (
    <section className="stack" aria-labelledby={id}>
      <div className="section-head">
        <h2 id={id}>{title}</h2>
        {more}
      </div>
      {children}
    </section>
  );
}
