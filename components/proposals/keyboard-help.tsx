const keys: [string[], string][] = [
  [["j", "k"], "next, previous"],
  [["x"], "select"],
  [["a"], "accept"],
  [["e"], "edit, then accept"],
  [["r"], "reject"],
  [["u"], "undo"],
  [["Esc"], "clear selection"],
];

/** The review keys, always on screen: a/r act on the selection when there is one, else on the current proposal. */
export function KeyboardHelp() {
  return (
    <section aria-label="Keyboard shortcuts" className="kbd-help">
      <ul>
        {keys.map(([combo, what]) => (
          <li key={what}>
            {combo.map((k, i) => (
              <span key={k}>
                {i ? " " : ""}
                <kbd>{k}</kbd>
              </span>
            ))}{" "}
            {what}
          </li>
        ))}
      </ul>
      <p className="hint">a and r apply to the selected proposals when some are selected, otherwise to the current one.</p>
    </section>
  );
}
