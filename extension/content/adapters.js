// Site adapters: where each chat site keeps its answers and their citations, layout by layout.
//
// A site serves several layouts at once (docs/sites.md says which, and from what
// public evidence), so a site is a list of layouts tried in turn; the first whose
// answer selector matches reads the page. When none matches on a known site, a
// structural fallback reads answer-like blocks that hold citation-like elements,
// so a redesign costs badges, never silence, and the self-check says which
// happened. Every selector lives in a layout's `selectors` and nowhere else.
//
// A citation is an element on the page plus the sources it names: an <a href>,
// a button whose JSON payload lists its sources, a chip whose URL is in its
// aria-label or a data attribute, or a chip whose URL is elsewhere on the page
// (or only in the dialog it opens: then `deferred` counts the sources the page
// does not show yet). Adapters only find things: the host decides every verdict.
"use strict";

(() => {
  if (globalThis.citemarkAdapters) return;

  const EXTERNAL = /^https?:\/\//i;
  const URL_IN_TEXT = /https?:\/\/[^\s,;"'<>]+/gi;
  const NOT_PROSE = "pre, code, [data-citemark-ui]";
  const NOT_ANSWER = "nav, header, footer, aside, form, textarea, [role='navigation'], [role='banner'], [contenteditable='true'], [data-citemark-ui]";
  /** Elements that look like citations whether or not a URL can be read from them. */
  const CITATION_LIKE = "[class*='citation' i], [data-testid*='citation' i], [data-pplx-citation], [data-assistant-content-reference], " +
    "source-inline-chip, source-footnote, [data-turn-source-index], [aria-label*='source' i], [aria-label^='citation' i], " +
    "[aria-label*='related links' i]";
  /** Where sites put the card or dialog a chip opens (outside the answer). */
  const OVERLAYS = "[role='dialog'], [role='tooltip'], [data-radix-popper-content-wrapper], .cdk-overlay-container, " +
    "fact-check-source-hovered-card, [popover]";

  const clean = (text) => (text || "").replace(/\s+/g, " ").trim();
  const domainOf = (url) => {
    try {
      return new URL(url).hostname.replace(/^www\./, "");
    } catch {
      return "";
    }
  };

  function source(url, { title = "", site = "" } = {}) {
    const href = clean(url).replace(/[).,;]+$/, "");
    if (!EXTERNAL.test(href)) return null;
    return { url: href, title: clean(title), site: clean(site) || domainOf(href) };
  }

  /**
   * A chip's label as read: "◉ rivers.example +1" → {label: "rivers.example", more: 1} (a grouped pill names one site and
   * counts the rest). A favicon drawn as text, or anything hidden from screen readers, is not part of the name.
   */
  function pillLabel(element) {
    const copy = element.cloneNode(true);
    for (const hidden of copy.querySelectorAll("[aria-hidden='true'], svg, img, style, script")) hidden.remove();
    const text = clean(copy.textContent).replace(/^[^\p{L}\p{N}]+/u, "");
    const match = text.match(/^(.*?)\s*\+\s*(\d+)$/);
    return match ? { label: match[1], more: Number(match[2]) } : { label: text, more: 0 };
  }

  const isCitationLink = (a) => {
    const href = a.getAttribute("href") || "";
    return EXTERNAL.test(href) && !a.closest(NOT_PROSE);
  };

  // ------------------------------------------------------------------ readers: element → citation

  /** A link labelled only with a domain ("unesco.example") names its source; it is not part of the claim. */
  const DOMAIN_LABEL = /^(?:www\.)?[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+$/u;

  /** An <a href>: one source, or a grouped pill ("site +1") whose other sources only its hover card shows. */
  function readLink(a, { pill = false } = {}) {
    if (!isCitationLink(a)) return null;
    const { label, more } = pillLabel(a);
    const looksLikePill = pill || more > 0 || DOMAIN_LABEL.test(label);
    const found = source(a.href, { title: a.getAttribute("title") || "", site: looksLikePill ? label : "" });
    return found && { element: a, kind: "link", pill: looksLikePill, label, sources: [found], deferred: more };
  }

  /** A button carrying `data-assistant-sources-payload` (JSON [{attribution, title, url}]); its group size may be in its aria-label. */
  function readPayload(button) {
    let payload = [];
    try {
      payload = JSON.parse(button.getAttribute("data-assistant-sources-payload") || "[]");
    } catch {
      payload = [];
    }
    const sources = (Array.isArray(payload) ? payload : []).map((item) =>
      item && source(item.url, { title: item.title, site: item.attribution })).filter(Boolean);
    const counted = Number((button.getAttribute("aria-label") || "").match(/(\d+)\s+sources?\b/i)?.[1] || 0);
    const { label } = pillLabel(button.querySelector("[data-assistant-reference-title]") || button);
    const expected = Math.max(sources.length, counted, 1);
    return { element: button, kind: "payload", pill: true, label, sources, deferred: expected - sources.length };
  }

  /** A chip whose URL is in its aria-label ("title, url, and 2 more sources"), or in its href when it has one. */
  function readAriaChip(a) {
    const aria = a.getAttribute("aria-label") || "";
    const href = a.getAttribute("href") || "";
    const url = EXTERNAL.test(href) ? a.href : (aria.match(URL_IN_TEXT) || [])[0];
    const { label, more: counted } = pillLabel(a);
    const more = Number(aria.match(/and\s+(\d+)\s+more\s+sources?/i)?.[1] || counted || 0);
    const title = aria.split(/,\s*https?:\/\//i)[0];
    const found = url && source(url, { title, site: label });
    return { element: a, kind: "aria", pill: true, label, sources: found ? [found] : [], deferred: more + (found ? 0 : 1) };
  }

  /** A chip whose URL is in a data attribute (`data-pplx-citation-url`); "domain+1" counts sources only its hover card shows. */
  function readDataUrl(element, attribute) {
    const { label, more } = pillLabel(element);
    const found = source(element.getAttribute(attribute), { site: label });
    return { element, kind: "data-url", pill: true, label, sources: found ? [found] : [], deferred: more + (found ? 0 : 1) };
  }

  /** A chip that names its source but holds no URL (Gemini): look for the link in the answer's own source list. */
  function readNamedChip(chip, answer, selectors) {
    const button = chip.querySelector("button") || chip;
    const shown = chip.querySelector(selectors.chipTitle);
    const title = (shown && pillLabel(shown).label) ||
      clean((button.getAttribute("aria-label") || "").match(/citation from (.+?)\.(?:\s|$)/i)?.[1]) || clean(chip.textContent);
    const wanted = title.toLowerCase();
    const listed = wanted && [...answer.querySelectorAll(selectors.sourceList)].find((a) => {
      const names = [a.textContent, a.getAttribute("aria-label"), a.getAttribute("title"), domainOf(a.href)].map((s) => clean(s).toLowerCase());
      return EXTERNAL.test(a.getAttribute("href") || "") && names.some((name) => name && (name.includes(wanted) || wanted.includes(name)));
    });
    const found = listed && source(listed.href, { title: clean(listed.textContent), site: title });
    return { element: chip, kind: "chip", pill: true, label: title, sources: found ? [found] : [], deferred: found ? 0 : 1 };
  }

  /**
   * A Deep Research footnote (`source-footnote > sup[data-turn-source-index="N"]`): the N-th row (1-based) of the report's
   * "Sources used in the report" list. While that list is closed its rows are not in the page: open to check.
   */
  function readIndexedFootnote(footnote, selectors) {
    const index = Number(footnote.querySelector(selectors.footnoteIndex)?.getAttribute("data-turn-source-index"));
    const row = Number.isInteger(index) && index > 0 ? document.querySelectorAll(selectors.reportSources)[index - 1] : null;
    const found = row && source(row.href, { title: row.getAttribute("aria-label") || "", site: domainOf(row.href) });
    const label = Number.isInteger(index) ? String(index) : "";
    return { element: footnote, kind: "chip", pill: true, label, sources: found ? [found] : [], deferred: found || !label ? 0 : 1 };
  }

  /** A numbered citation button that holds no URL (Copilot's "[3]"): checked when the user opens its card. */
  function readNumberedButton(button) {
    return { element: button, kind: "chip", pill: true, label: pillLabel(button).label, sources: [], deferred: 1 };
  }

  /** Google's own redirect (`/url?q=…`) unwrapped; null for any other Google page (a search, a settings link). */
  function outsideGoogle(href) {
    try {
      const url = new URL(href);
      if (!/(^|\.)google\.[a-z.]+$/.test(url.hostname)) return href;
      const target = url.pathname === "/url" ? url.searchParams.get("q") || url.searchParams.get("url") : null;
      return target && EXTERNAL.test(target) ? target : null;
    } catch {
      return null;
    }
  }

  /** Google's icon-only "View related links" pill: the source's name and group size in its aria-label ("NASA (+2) – View related links"). */
  function readRelatedLinks(a) {
    const url = outsideGoogle(a.href);
    const named = (a.getAttribute("aria-label") || "").match(/^(.*?)\s*(?:\(\+(\d+)\))?\s*[–—-]\s*View related links/i);
    const found = url && source(url, { site: named?.[1] || "" });
    return found && { element: a, kind: "chip", pill: true, label: found.site, sources: [found], deferred: Number(named?.[2] || 0) };
  }

  /** Any element whose data-* attribute holds a URL, a JSON payload with URLs, or an aria-label with one (the fallback's reader). */
  function readAnything(element) {
    if (element.matches("a[href]")) return readLink(element);
    if (element.hasAttribute("data-assistant-sources-payload")) return readPayload(element);
    for (const name of element.getAttributeNames()) {
      if (!name.startsWith("data-")) continue;
      const value = element.getAttribute(name) || "";
      if (EXTERNAL.test(value.trim())) return readDataUrl(element, name);
      if (value.startsWith("[") && /"url"\s*:/.test(value)) {
        try {
          const sources = JSON.parse(value).map((item) => item && source(item.url, { title: item.title, site: item.attribution })).filter(Boolean);
          if (sources.length) return { element, kind: "payload", pill: true, label: pillLabel(element).label, sources, deferred: 0 };
        } catch {
          // not JSON after all
        }
      }
    }
    const aria = element.getAttribute("aria-label") || "";
    if (URL_IN_TEXT.test(aria)) {
      URL_IN_TEXT.lastIndex = 0;
      return readAriaChip(element);
    }
    return null;
  }

  /** Links into the answer's own footnote list ("#fn-1") cite what the footnote links to. */
  function footnoteCitations(content) {
    const found = [];
    const notes = [];
    for (const link of content.querySelectorAll('a[href^="#"]')) {
      const id = decodeURIComponent(link.getAttribute("href").slice(1));
      const target = id && content.querySelector(`[id="${CSS.escape(id)}"]`);
      const cited = target && !target.contains(link) && [...target.querySelectorAll("a[href]")].find(isCitationLink);
      if (!cited) continue;
      notes.push(target);
      found.push({ element: link, kind: "footnote", pill: true, label: clean(link.textContent),
        sources: [source(cited.href, { title: clean(cited.textContent) })], deferred: 0 });
    }
    return { found, notes };
  }

  /** Citations of one answer: every match of `selector` that `read` understands, outermost first, in page order. */
  function collect(content, selector, read, exclude) {
    const citations = [];
    const taken = [];
    for (const element of content.querySelectorAll(selector)) {
      if (element.closest(NOT_PROSE) || (exclude && element.closest(exclude))) continue;
      if (taken.some((outer) => outer.contains(element))) continue;
      const citation = read(element);
      if (!citation || (!citation.sources.length && !citation.deferred)) continue;
      citations.push(citation);
      taken.push(element);
    }
    return citations;
  }

  /** The fallback reader for one answer block: links, data-* URLs, payloads and aria-label URLs. */
  function anyCitations(content) {
    const { found, notes } = footnoteCitations(content);
    const rest = collect(content, "*", readAnything, null).filter((c) =>
      !notes.some((note) => note.contains(c.element)) && !found.some((f) => f.element === c.element));
    return [...found, ...rest].sort(inPageOrder);
  }

  function inPageOrder(a, b) {
    return a.element.compareDocumentPosition(b.element) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
  }

  /** Citation-like elements of `root` that no reader could get a URL from (the self-check counts them). */
  function unreadable(root, citations) {
    const like = [...root.querySelectorAll(CITATION_LIKE)].filter((element) => !element.closest(NOT_PROSE));
    return like.filter((element) => !citations.some((c) => c.element.contains(element) || element.contains(c.element)) &&
      !like.some((outer) => outer !== element && outer.contains(element))).length;
  }

  // ------------------------------------------------------------------ layouts

  /** The composer's Stop button (the thread layout's has no test id, only its label). */
  function stopShown(selectors) {
    if (selectors.stop && document.querySelector(selectors.stop)) return true;
    return Boolean(selectors.stopLabel && [...document.querySelectorAll("button[aria-label]")].some((b) =>
      selectors.stopLabel.test(b.getAttribute("aria-label")) && !/dictat|voice|record|listen|speak|aloud|read/i.test(b.getAttribute("aria-label"))));
  }

  const isLast = (answer, selectors) => [...document.querySelectorAll(selectors.answer)].pop() === answer;

  /**
   * A layout: `selectors` (answer, content, citation, …), `finished(answer, content)` → true, false, or
   * null when the layout has no signal (the answer then counts as finished once it stops changing),
   * and `citations(content, answer)`.
   */
  const layout = (definition) => ({
    overlay: OVERLAYS,
    answers(root = document) {
      return [...root.querySelectorAll(definition.selectors.answer)].filter((a) => !a.parentElement?.closest(definition.selectors.answer));
    },
    content(answer) {
      return (definition.selectors.content && answer.querySelector(definition.selectors.content)) || answer;
    },
    ...definition,
  });

  const linkCitations = (content, selectors) => {
    const { found, notes } = footnoteCitations(content);
    const links = collect(content, selectors.citation, (a) => readLink(a, { pill: Boolean(selectors.pill && a.matches(selectors.pill)) }),
      selectors.exclude).filter((c) => !notes.some((note) => note.contains(c.element)));
    return [...found, ...links].sort(inPageOrder);
  };

  const chatgptClassic = layout({
    name: "classic",
    selectors: {
      answer: '[data-message-author-role="assistant"]',
      content: ".markdown",
      streaming: ".result-streaming",
      stop: 'button[data-testid="stop-button"]',
      citation: "a[href]",
      pill: '[data-testid="webpage-citation-pill"] a, a[data-testid="webpage-citation-pill"]',
    },
    finished(answer, content) {
      if (content.matches(this.selectors.streaming) || content.querySelector(this.selectors.streaming)) return false;
      return !(stopShown(this.selectors) && isLast(answer, this.selectors));
    },
    citations(content) {
      return linkCitations(content, this.selectors);
    },
  });

  const chatgptThread = layout({
    name: "thread",
    selectors: {
      answer: '[data-chatgpt-search-unit-key$=":assistant"], [data-content-search-unit-key$=":assistant"]',
      content: '[data-markdown-text-style="assistant-message"]',
      final: "[data-chatgpt-selection-message-id]",
      stop: 'button[data-testid="stop-button"]',
      stopLabel: /^stop\b/i,
      chip: 'a[data-testid="chatgpt-citation"]',
      citation: 'a[data-testid="chatgpt-citation"], a[href]',
    },
    finished(answer) {
      if (!answer.querySelector(this.selectors.final) && !answer.matches(this.selectors.final)) return false;
      return !(stopShown(this.selectors) && isLast(answer, this.selectors));
    },
    citations(content) {
      return collect(content, this.selectors.citation, (a) => (a.matches(this.selectors.chip) ? readAriaChip(a) : readLink(a)));
    },
  });

  const chatgptLightweight = layout({
    name: "lightweight",
    selectors: {
      answer: 'li[data-message-role="assistant"]',
      content: "[data-assistant-markdown]",
      complete: "data-message-complete",
      streaming: "data-message-streaming",
      button: "button[data-assistant-sources-payload], button[data-assistant-grouped-webpages-trigger]",
      citation: "[data-assistant-content-reference] button, button[data-assistant-sources-payload], button[data-assistant-grouped-webpages-trigger], a[href]",
      exclude: '[role="group"][aria-label="Sources"]',
    },
    finished(answer) {
      return answer.hasAttribute(this.selectors.complete) && !answer.hasAttribute(this.selectors.streaming) && !answer.id.startsWith("pending-");
    },
    citations(content) {
      return collect(content, this.selectors.citation, (element) => (element.matches("a[href]") ? readLink(element) : readPayload(element)),
        this.selectors.exclude);
    },
  });

  const claudeLayout = layout({
    name: "claude",
    selectors: {
      answer: "[data-is-streaming]",
      content: ".font-claude-response, .font-claude-message, [data-testid='assistant-message']",
      streamingBody: ".progressive-markdown",
      citation: "a[href]",
      pill: "a[data-citation], span[data-testid='citation'] a, a.citation",
    },
    finished(answer) {
      return answer.getAttribute("data-is-streaming") === "false" && !answer.querySelector(this.selectors.streamingBody);
    },
    citations(content) {
      return linkCitations(content, this.selectors);
    },
  });

  const perplexityLayout = layout({
    name: "perplexity",
    selectors: {
      answer: '[data-workflow-final-text], [class~="group/final-text"]',
      content: ".prose",
      urlAttribute: "data-pplx-citation-url",
      citation: "[data-pplx-citation-url], a[href]",
    },
    // No public source names a "finished" signal: the answer counts as finished once it stops changing.
    finished: () => null,
    citations(content) {
      return collect(content, this.selectors.citation, (element) =>
        (element.hasAttribute(this.selectors.urlAttribute) ? readDataUrl(element, this.selectors.urlAttribute) : readLink(element, { pill: true })));
    },
  });

  const geminiLayout = layout({
    name: "gemini",
    selectors: {
      // a chat answer, or a Deep Research report in the side panel (outside every model-response)
      answer: "model-response, immersive-panel",
      content: "message-content .markdown, .markdown.markdown-main-panel",
      footer: ".response-footer",
      chip: "source-inline-chip",
      chipTitle: ".source-title",
      sourceList: "sources-list a[href], .sources-list a[href]",
      footnote: "source-footnote",
      footnoteIndex: "[data-turn-source-index]",
      reportSources: "deep-research-source-lists .used-sources browse-web-item a[href]",
      citation: "source-inline-chip, source-footnote, a[href]",
      exclude: "sources-list, .sources-list, deep-research-source-lists",
    },
    finished(answer, content) {
      const busy = content.getAttribute("aria-busy");
      if (busy === "true") return false;
      if (busy === "false" || answer.querySelector(`${this.selectors.footer}.complete`)) return true;
      return null;
    },
    citations(content, answer) {
      return collect(content, this.selectors.citation, (element) => {
        if (element.matches(this.selectors.chip)) return readNamedChip(element, answer, this.selectors);
        if (element.matches(this.selectors.footnote)) return readIndexedFootnote(element, this.selectors);
        return readLink(element);
      }, this.selectors.exclude);
    },
  });

  const copilotLayout = layout({
    name: "copilot",
    selectors: {
      answer: '[data-content="ai-message"]',
      urlAttribute: "data-url",
      numbered: 'button[aria-label^="Citation "]',
      citation: '[data-url], button[aria-label^="Citation "], a[href]',
      stopLabel: /^stop\b/i,
    },
    // No public source names a "finished" signal beyond the Stop button: otherwise once the answer stops changing.
    finished(answer) {
      return stopShown(this.selectors) && isLast(answer, this.selectors) ? false : null;
    },
    citations(content) {
      return collect(content, this.selectors.citation, (element) => {
        if (element.hasAttribute(this.selectors.urlAttribute)) return readDataUrl(element, this.selectors.urlAttribute);
        if (element.matches(this.selectors.numbered)) return readNumberedButton(element);
        return readLink(element);
      });
    },
  });

  /** Google's answers cite through its pills and, now and then, plain links (maybe through its redirect); links to Google itself are not sources. */
  function googleCitations(content, selectors) {
    return collect(content, selectors.citation, (a) => {
      if (a.matches(selectors.pill)) return readRelatedLinks(a);
      const url = outsideGoogle(a.href);
      const citation = url && readLink(a);
      if (citation) citation.sources = [source(url, citation.sources[0])];
      return citation;
    }, selectors.exclude);
  }

  const googleAiMode = layout({
    name: "ai-mode",
    selectors: {
      answer: '[data-subtree="aimc"]',
      content: '[data-container-id="main-col"]',
      pill: "a.PMDqCb, a[aria-label*='View related links' i]",
      citation: "a[href]",
      exclude: "[role='dialog'], [data-subtree='aimba']",
    },
    // The answer streams in and no public source names its end: once it stops changing.
    finished: () => null,
    citations(content) {
      return googleCitations(content, this.selectors);
    },
  });

  const googleOverview = layout({
    name: "ai-overview",
    selectors: {
      answer: "div[data-mcpr]",
      content: '[data-container-id="main-col"]',
      complete: 'div[data-type="hovc"]',
      pill: "a.PMDqCb, a[aria-label*='View related links' i]",
      citation: "a[href]",
      exclude: "[role='dialog']",
    },
    finished(answer) {
      return answer.querySelector(this.selectors.complete) ? true : null;
    },
    citations(content) {
      return googleCitations(content, this.selectors);
    },
  });

  /** A Google results page shows an AI answer under this heading; without one, a page that matches no layout has none to read. */
  const hasAiHeading = (root) => [...root.querySelectorAll("[role='heading'], h1, h2, h3, strong")]
    .some((heading) => /^AI (Overview|Mode)$/i.test(clean(heading.textContent)));

  // ------------------------------------------------------------------ the structural fallback

  const BLOCKS = "p, li, td, th, blockquote, h1, h2, h3, h4, h5, h6, dd, dt";
  const WRAPPERS = new Set(["UL", "OL", "LI", "TABLE", "THEAD", "TBODY", "TR", "TD", "TH", "BLOCKQUOTE", "DL", "DD", "DT"]);

  /** The prose container a citation sits in: the parent of its paragraph, above any list or table. */
  function proseContainer(element, scope) {
    let node = element.closest(BLOCKS)?.parentElement;
    while (node && node !== scope && WRAPPERS.has(node.tagName)) node = node.parentElement;
    return node && scope.contains(node) && node !== scope ? node : null;
  }

  const fallback = layout({
    name: "fallback",
    selectors: { answer: "answer-like blocks (the parents of paragraphs holding citation-like elements)", citation: "a[href], [data-*=URL], [aria-label*=URL], JSON payloads" },
    finished: () => null,
    answers(root = document) {
      const scope = root.querySelector("main") || root.body;
      if (!scope) return [];
      const containers = new Set();
      // every element: a citation may be any element whose data-* attribute holds its address
      for (const element of scope.querySelectorAll("*")) {
        if (element.closest(NOT_ANSWER) || element.closest(NOT_PROSE)) continue;
        if (!readAnything(element) && !element.matches(CITATION_LIKE)) continue;
        const container = proseContainer(element, scope);
        if (container && clean(container.textContent).length >= 40) containers.add(container);
      }
      return [...containers].filter((c) => ![...containers].some((other) => other !== c && other.contains(c)));
    },
    content: (answer) => answer,
    citations: (content) => anyCitations(content),
  });

  /** Prose on the page outside navigation and forms (so "no answers" can be told from "answers citemark cannot find"). */
  function proseLength(root = document) {
    const scope = root.querySelector("main") || root.body;
    if (!scope) return 0;
    return [...scope.querySelectorAll("p, li")].filter((b) => !b.closest(NOT_ANSWER) && !b.parentElement.closest("p, li"))
      .reduce((sum, b) => sum + clean(b.textContent).length, 0);
  }

  // ------------------------------------------------------------------ sites

  /**
   * A site: its layouts, tried in order, then the structural fallback. A site whose pages are mostly not answers (a search
   * engine) sets `structural: false`, so its ordinary links are never read as citations, and `hasAnswer(root)`, which tells
   * "no answer here" from "an answer citemark cannot read" when no layout matches.
   */
  const site = ({ name, label, hosts, layouts, structural = true, hasAnswer = null }) => ({
    name,
    label,
    layouts,
    matches: (hostname) => hosts.some((h) => hostname === h || hostname.endsWith("." + h)),

    /**
     * Read the page: the first layout whose answer selector matches, else the structural fallback.
     * Returns the answers (each with its content, finished state and citations) and the self-check's
     * raw material: what was tried and how much matched.
     */
    read(root = document) {
      const tried = [];
      for (const candidate of structural ? [...layouts, fallback] : layouts) {
        const found = candidate.answers(root);
        tried.push({ layout: candidate.name, selectors: candidate.selectors, answers: found.length });
        if (!found.length) continue;
        let citationFallback = false;
        const answers = found.map((element) => {
          const content = candidate.content(element);
          let citations = candidate.citations(content, element);
          if (!citations.length && candidate !== fallback) {
            citations = anyCitations(content);
            citationFallback ||= citations.length > 0;
          }
          return { element, content, finished: candidate.finished(element, content), citations };
        });
        const all = answers.flatMap((a) => a.citations);
        return {
          layout: candidate.name, fallback: candidate === fallback, citationFallback, tried, answers,
          unreadable: answers.reduce((n, a) => n + unreadable(a.content, a.citations), 0),
          prose: proseLength(root), overlay: candidate.overlay, citations: all,
        };
      }
      const present = hasAnswer ? hasAnswer(root) : null; // null: the site cannot tell, the page's prose and chips decide
      return { layout: null, fallback: false, citationFallback: false, tried, answers: [], citations: [], answerShown: present === true,
        unreadable: present !== false ? unreadable(root.querySelector("main") || root.body || root, []) : 0,
        prose: present !== false ? proseLength(root) : 0, overlay: OVERLAYS };
    },
  });

  const chatgpt = site({ name: "chatgpt", label: "ChatGPT", hosts: ["chatgpt.com", "chat.openai.com"],
    layouts: [chatgptClassic, chatgptThread, chatgptLightweight] });
  const claude = site({ name: "claude", label: "Claude", hosts: ["claude.ai"], layouts: [claudeLayout] });
  const perplexity = site({ name: "perplexity", label: "Perplexity", hosts: ["perplexity.ai"], layouts: [perplexityLayout] });
  const gemini = site({ name: "gemini", label: "Gemini", hosts: ["gemini.google.com"], layouts: [geminiLayout] });
  const copilot = site({ name: "copilot", label: "Copilot", hosts: ["copilot.microsoft.com"], layouts: [copilotLayout] });
  const google = site({ name: "google", label: "Google AI", hosts: ["www.google.com"], layouts: [googleAiMode, googleOverview],
    structural: false, hasAnswer: hasAiHeading });
  const generic = { name: "generic", label: "this site", layouts: [], matches: () => false, read: null };

  const sites = [chatgpt, claude, perplexity, gemini, copilot, google];

  globalThis.citemarkAdapters = {
    sites,
    generic,
    forHost: (hostname) => sites.find((s) => s.matches(hostname)) || generic,
    isCitationLink,
    domainOf,
    OVERLAYS,
    /** Links a site's card or dialog shows (read when the user opens a chip whose URL the answer does not hold). */
    overlayLinks(selector = OVERLAYS) {
      return [...document.querySelectorAll(selector)].filter((o) => !o.closest("[data-citemark-ui]"))
        .flatMap((o) => [...o.querySelectorAll("a[href]")])
        .filter((a) => EXTERNAL.test(a.getAttribute("href") || "") && !a.closest("[data-citemark-ui]"))
        .map((a) => source(a.href, { title: clean(a.textContent) || a.getAttribute("title") || "" }))
        .filter(Boolean);
    },
  };
})();
