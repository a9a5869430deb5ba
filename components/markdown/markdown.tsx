import MarkdownIt from "markdown-it";
import { MAX_RENDERED_MARKDOWN_CHARS } from "@/lib/rules";

/**
 * Stored markdown (handoffs, session documents) rendered on the server, by markdown-it: its time grows
 * with the text's length whatever the text holds, and its nesting is capped (100), where a member's handoff of
 * a few thousand `>` or `_*` held the whole server for seconds to minutes with the parser before it. Safe
 * by construction: raw HTML in the text is escaped, not parsed (html: false); link URLs pass its
 * allow-list (no javascript:, vbscript:, file:, data: but images), so such a link stays text; remote
 * images are not loaded (a handoff could otherwise make every reader's browser fetch a tracking pixel);
 * no inline style (the Content Security Policy allows none): a table column's alignment is a class.
 */
const md = new MarkdownIt({ html: false, linkify: true });

md.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!;
  const alt = self.renderInlineAsText(token.children ?? [], options, env);
  const src = token.attrGet("src");
  return `<span class="md-image">[image${alt ? `: ${md.utils.escapeHtml(alt)}` : ""}${src ? ` — ${md.utils.escapeHtml(src)}` : ""}]</span>`;
};

md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  tokens[idx]!.attrSet("rel", "noopener noreferrer nofollow");
  return self.renderToken(tokens, idx, options);
};

const ALIGNED = /^text-align:(left|right|center)$/;
for (const cell of ["th_open", "td_open"] as const) {
  md.renderer.rules[cell] = (tokens, idx, options, _env, self) => {
    const token = tokens[idx]!;
    const align = ALIGNED.exec(token.attrGet("style") ?? "")?.[1];
    if (token.attrs) token.attrs = token.attrs.filter(([name]) => name !== "style");
    if (align) token.attrJoin("class", `md-align-${align}`);
    return self.renderToken(tokens, idx, options);
  };
}

export function Markdown({ children }: { children: string }) {
  // Past the limit the text is shown as it is: nothing is lost, and no page of them holds the server up.
  if (children.length > MAX_RENDERED_MARKDOWN_CHARS) {
    return (
      <div className="markdown markdown-plain">
        <p className="muted">Shown as plain text: longer than the {MAX_RENDERED_MARKDOWN_CHARS.toLocaleString("en")} characters the dashboard renders.</p>
        <pre>{children}</pre>
      </div>
    );
  }
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: md.render(children) }} />;
}
