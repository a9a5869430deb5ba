import type { ReactNode } from "react";

type Props = {
  label: string;
  columns: string[];
  /** A last column without a visible heading, for each row's buttons or links. */
  actions?: boolean;
  /** Tighter rows, for numbers beside a chart. */
  compact?: boolean;
  children: ReactNode;
};

/** A table with a heading row of column names; the rows are the children. */
export function DataTable({ label, columns, actions = false, compact = false, children }: Props) {
  return (
    <table className={compact ? "table table-compact" : "table"} aria-label={label}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
          {actions ? (
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
