import { niceMax } from "./nice-max";

export type Bar = { label: string; value: number; title?: string };

type Props = {
  id: string;
  title: string;
  bars: Bar[];
  /** What a value counts, for the axis and the table ("contexts", "tokens"). */
  unit: string;
  height?: number;
  /** The table's first column heading. */
  category?: string;
};

const WIDTH = 640;
const PAD = { top: 12, right: 8, bottom: 24, left: 48 };

/**
 * A vertical bar chart drawn on the server as SVG: no JavaScript, scales with its box, follows the
 * colour scheme. Each bar has a tooltip (its <title>), and the numbers are also in a table for screen
 * readers and for anyone who wants them exact.
 */
export function BarChart({ id, title, bars, unit, height = 160, category = "Day" }: Props) {
  const max = niceMax(Math.max(0, ...bars.map((b) => b.value)));
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = height - PAD.top - PAD.bottom;
  const step = innerW / Math.max(1, bars.length);
  const barW = Math.max(2, step * 0.7);
  const y = (v: number) => PAD.top + innerH - (max ? (v / max) * innerH : 0);
  const ticks = [0, max / 2, max];
  const labelled = new Set([0, Math.floor((bars.length - 1) / 2), bars.length - 1]);
  return (
    <figure className="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="chart-title">
        {title}
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-labelledby={`${id}-title`} data-testid={id}>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(t)} y2={y(t)} className="chart-grid" />
            <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" className="chart-axis">
              {compact(t)}
            </text>
          </g>
        ))}
        {bars.map((b, i) => (
          <rect key={b.label} x={PAD.left + i * step + (step - barW) / 2} y={y(b.value)} width={barW} height={Math.max(0, PAD.top + innerH - y(b.value))} className="chart-bar" data-value={b.value}>
            <title>{b.title ?? `${b.label}: ${b.value.toLocaleString("en")} ${unit}`}</title>
          </rect>
        ))}
        {bars.map((b, i) =>
          labelled.has(i) ? (
            <text key={b.label} x={PAD.left + i * step + step / 2} y={height - 6} textAnchor="middle" className="chart-axis">
              {b.label}
            </text>
          ) : null,
        )}
      </svg>
      <details className="chart-data">
        <summary>Show the numbers</summary>
        <table className="table table-compact">
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{category}</th>
              <th scope="col">{unit}</th>
            </tr>
          </thead>
          <tbody>
            {bars.map((b) => (
              <tr key={b.label}>
                <td>{b.label}</td>
                <td>{b.value.toLocaleString("en")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/** 1234 → "1.2k": axis labels stay short. */
export function compact(n: number): string {
  if (n >= 1_000_000) return `${+(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1000) return `${+(n / 1000).toFixed(1)}k`;
  return String(+n.toFixed(1));
}
