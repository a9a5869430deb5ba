import MarkdownIt from "markdown-it";
import { MAX_RENDERED_MARKDOWN } from "@/lib/rules";

/**
 * Stored markdown (handoffs, session documents) rendered on the server, by markdown-it: its time grows
 * with the text's length whatever the text holds, and its nesting is capped (100), where a member's handoff of
 * a few thousand `>` or `_*` held the whole server for seconds to minutes with the parser before it. Safe
 * by construction: raw HTML in the text is escaped, not parsed (html: false); link URLs pass its
 * allow-list (no javascript:, vbscript:, file:, data: but images), so such a link stays text; remote
 * images are not loaded (a handoff could otherwise make every reader's browser fetch a tracking pixel);
 * no inline style (the Content Security Policy allows none): a table column's alignment is a class.
 * A text past MAX_RENDERED_MARKDOWN.text is shown as plain text, and so is every text of a page once the
 * page has rendered MAX_RENDERED_MARKDOWN.page characters (a board of 300 documents, each under the limit).
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

/**
 * Each block of a text its own direction, from its first strong character (dir="auto"): a Hebrew or
 * Arabic paragraph reads right to left, an English one beside it left to right, and a Hebrew line with
 * a command in it keeps its words in order.
 */
for (const block of ["paragraph_open", "heading_open", "list_item_open", "blockquote_open"] as const) {
  md.renderer.rules[block] = (tokens, idx, options, _env, self) => {
    tokens[idx]!.attrSet("dir", "auto");
    return self.renderToken(tokens, idx, options);
  };
}

const ALIGNED = /^text-align:(left|right|center)$/;
for (const cell of ["th_open", "td_open"] as const) {
  md.renderer.rules[cell] = (tokens, idx, options, _env, self) => {
    const token = tokens[idx]!;
    const align = ALIGNED.exec(token.attrGet("style") ?? "")?.[1];
    if (token.attrs) token.attrs = token.attrs.filter(([name]) => name !== "style");
    if (align) token.attrJoin("class", `md-align-${align}`);
    token.attrSet("dir", "auto");
    return self.renderToken(tokens, idx, options);
  };
}

/** What one page may still render as markdown, in characters: made once a page (markdownBudget), spent by each text in turn. */
export class MarkdownBudget {
  #left: number = MAX_RENDERED_MARKDOWN.page;

  /** Whether `chars` more may be rendered; if so they are spent. */
  take(chars: number): boolean {
    if (chars > this.#left) return false;
    this.#left -= chars;
    return true;
  }
}
export const markdownBudget = () => new MarkdownBudget();

const limit = (n: number) => n.toLocaleString("en");

export function Markdown({ children, budget }: { children: string; budget: MarkdownBudget }) {
  // Past a limit the text is shown as it is: nothing is lost, and no page of them holds the server up.
  const why =
    children.length > MAX_RENDERED_MARKDOWN.text
      ? `longer than the ${limit(MAX_RENDERED_MARKDOWN.text)} characters the dashboard renders`
      : !budget.take(children.length)
        ? `this page has rendered the ${limit(MAX_RENDERED_MARKDOWN.page)} characters of markdown it renders`
        : null;
  if (why) {
    return (
      <div className="markdown markdown-plain">
        <p className="muted">Shown as plain text: {why}.</p>
        <pre dir="auto">{children}</pre>
      </div>
    );
  }
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: md.render(children) }} />;
}
