// Site adapters: where each site keeps its finished assistant answers and their citations.
//
// The DOM of these sites changes often, so every selector of a site lives in its
// adapter's `selectors` and nowhere else; a site whose selectors stop matching
// falls back to the generic adapter. Adapters only find things: the host decides
// every verdict.
"use strict";

(() => {
  if (globalThis.citemarkAdapters) return;

  const EXTERNAL = /^https?:\/\//i;

  const isCitationLink = (a) => {
    const href = a.getAttribute("href") || "";
    return EXTERNAL.test(href) && !a.closest("pre, code, [data-citemark-ui]");
  };

  const make = ({ name, hosts, selectors }) => ({
    name,
    selectors,
    matches: (hostname) => hosts.some((h) => hostname === h || hostname.endsWith("." + h)),

    /** Assistant messages that have finished streaming. */
    finishedMessages(root = document) {
      return [...root.querySelectorAll(selectors.message)].filter((m) => !this.isStreaming(m));
    },

    isStreaming(message) {
      if (selectors.streaming && message.matches(selectors.streaming)) return true;
      if (selectors.streamingInside && message.querySelector(selectors.streamingInside)) return true;
      return Boolean(selectors.stopButton && document.querySelector(selectors.stopButton) &&
        message === [...document.querySelectorAll(selectors.message)].pop());
    },

    /** The element whose HTML is the answer (text, links, source list). */
    content(message) {
      return (selectors.content && message.querySelector(selectors.content)) || message;
    },

    /** Links that cite a source, in document order: external links, and in-answer
     *  footnote links ("#fn-1") whose target holds one. The footnote list itself is
     *  the definitions, not more citations. */
    citations(message) {
      const content = this.content(message);
      const notes = new Set();
      const footnoteLinks = new Set();
      for (const link of content.querySelectorAll('a[href^="#"]')) {
        const id = decodeURIComponent(link.getAttribute("href").slice(1));
        const target = id && content.querySelector(`[id="${CSS.escape(id)}"]`);
        if (target && !target.contains(link) && [...target.querySelectorAll("a[href]")].some(isCitationLink)) {
          notes.add(target);
          footnoteLinks.add(link);
        }
      }
      return [...content.querySelectorAll("a[href]")].filter((link) =>
        footnoteLinks.has(link) || (isCitationLink(link) && ![...notes].some((note) => note.contains(link))));
    },

    /** A link that only names its source (a "pill"): its text is not part of the claim. */
    isPill(link) {
      return Boolean(selectors.pill && link.matches(selectors.pill));
    },
  });

  const chatgpt = make({
    name: "chatgpt",
    hosts: ["chatgpt.com", "chat.openai.com"],
    selectors: {
      message: '[data-message-author-role="assistant"]',
      content: ".markdown",
      streaming: ".result-streaming, [data-streaming='true']",
      streamingInside: ".result-streaming",
      stopButton: '[data-testid="stop-button"]',
      pill: '[data-testid="webpage-citation-pill"] a, a[data-testid="webpage-citation-pill"], a.citation-pill, span.citation-pill a',
    },
  });

  const claude = make({
    name: "claude",
    hosts: ["claude.ai"],
    selectors: {
      message: "[data-is-streaming]",
      content: ".font-claude-response, .font-claude-message, [data-testid='assistant-message']",
      streaming: '[data-is-streaming="true"]',
      pill: "a[data-citation], span[data-testid='citation'] a, a.citation",
    },
  });

  const generic = make({
    name: "generic",
    hosts: [],
    selectors: { message: "article, main", content: null, pill: "sup a, a[rel~='footnote']" },
  });

  const all = [chatgpt, claude];

  globalThis.citemarkAdapters = {
    chatgpt,
    claude,
    generic,
    forHost(hostname) {
      return all.find((a) => a.matches(hostname)) || generic;
    },
    isCitationLink,
  };
})();
