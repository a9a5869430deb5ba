import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";

/**
 * Stored markdown (handoffs, session documents) rendered on the server. Safe by construction: it
 * becomes React elements, never an HTML string; raw HTML in the text is shown as text, not parsed;
 * link URLs pass react-markdown's protocol allow-list (no javascript:); remote images are not loaded
 * (a handoff could otherwise make every reader's browser fetch a tracking pixel).
 */
const components: Components = {
  img: ({ alt, src }) => (
    <span className="md-image">
      [image{alt ? `: ${alt}` : ""}
      {typeof src === "string" && src ? ` — ${src}` : ""}]
    </span>
  ),
  a: ({ href, children }) => (
    <a href={href} rel="noopener noreferrer nofollow">
      {children}
    </a>
  ),
};

export function Markdown({ children }: { children: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components}>
        {children}
      </ReactMarkdown>
    </div>
  );
}
