import { niceMax } from "./nice-max";

export type SectionBar = { name: string; label: string; tokens: number; included: boolean; omitted: number };

const WIDTH = 480;
const ROW = 30;
const LABEL_W = 150;
const VALUE_W = 130;

/**
 * Tokens per context section as horizontal bars, drawn on the server as SVG. A section that was left
 * out has no bar and says so; one that was shortened says how many items it left out. The same numbers
 * are in the table beside it (screen readers read that one).
 */
export function SectionChart({ id, sections, budget }: { id: string; sections: SectionBar[]; budget: number }) {
  const max = niceMax(Math.max(1, ...sections.map((s) => s.tokens)));
  const barMax = WIDTH - LABEL_W - VALUE_W;
  const height = sections.length * ROW + 8;
  return (
    <figure className="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="chart-title">
        Tokens per section (budget {budget.toLocaleString("en")})
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-labelledby={`${id}-title`} data-testid={id}>
        {sections.map((s, i) => {
          const y = 4 + i * ROW;
          const w = s.included ? Math.max(2, (s.tokens / max) * barMax) : 0;
          const note = !s.included ? `left out${s.omitted ? ` (${s.omitted} item${s.omitted === 1 ? "" : "s"})` : ""}` : s.omitted ? `${s.tokens} · ${s.omitted} left out` : String(s.tokens);
          return (
            <g key={s.name} data-section={s.name} data-tokens={s.tokens} data-included={s.included}>
              <text x={LABEL_W - 8} y={y + ROW / 2 + 4} textAnchor="end" className="chart-label">
                {s.label}
              </text>
              {s.included ? (
                <rect x={LABEL_W} y={y + 5} width={w} height={ROW - 10} rx={3} className={s.omitted ? "chart-bar chart-bar-omitted" : "chart-bar"}>
                  <title>{`${s.label}: ${s.tokens} tokens${s.omitted ? `, ${s.omitted} items left out` : ""}`}</title>
                </rect>
              ) : (
                <line x1={LABEL_W} x2={LABEL_W + 24} y1={y + ROW / 2} y2={y + ROW / 2} className="chart-grid" strokeDasharray="3 3" />
              )}
              <text x={LABEL_W + (s.included ? w : 24) + 6} y={y + ROW / 2 + 4} className="chart-axis">
                {note}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
