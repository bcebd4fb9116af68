// The content script: finds finished answers, sends what it extracted, draws what the host decided.
//
// One MutationObserver, debounced with a maximum wait (a finished answer is badged
// even while another keeps streaming). For each finished answer it tags every
// citation with data-citemark-ref, sends a copy of the answer's HTML in which
// every citation is a plain <a href> per source (our own UI removed), and puts a
// pending badge beside each citation; verdicts then stream back one by one.
// Verdicts are kept for the life of the tab, keyed by the citation's paragraph and
// URL, so a turn that a virtualized conversation unmounts and re-mounts gets its
// badges back without asking the host again. A chip whose URL the page shows only
// in the card or dialog it opens is checked when the user opens it. A self-check
// (answers, citations, which layout matched) feeds the popup and the toolbar badge.
// It never decides a verdict.
"use strict";

(() => {
  if (globalThis.citemarkContent) return;
  globalThis.citemarkContent = true;

  const api = globalThis.browser ?? globalThis.chrome;
  const adapters = globalThis.citemarkAdapters;
  const draw = globalThis.citemarkBadges;
  const site = adapters.forHost(location.hostname);
  const DEBOUNCE_MS = 700;
  const MAX_WAIT_MS = 2500; // a page that never stops changing is still scanned this often
  const OPEN_WAIT_MS = 5000; // how long after the user opens a chip its card or dialog may take to appear
  const BLOCK = "p, li, td, th, blockquote, h1, h2, h3, h4, h5, h6, dd, dt";

  let port = null;
  let counter = 0;
  let refCounter = 0;
  let enabled = true;
  let listUncited = false; // the popup's "List sentences without a citation" (off by default)
  let policy = "strict"; // the popup's "Judging": how strictly the host judges (its default: strict)
  let pageUrl = location.href;
  let lastRead = null;
  let published = "";
  const requests = new Map(); // local request id -> {content, textKey, sources: Map(source ref -> {record, found})}
  const records = new Map(); // citation ref -> {ref, element, content, key, kind, label, pill, sources, deferred, badge}
  const seen = new WeakMap(); // answer element -> {print, at, verified, request}
  const verdicts = new Map(); // claim key + URL -> verdict, for this tab
  const summaries = new Map(); // answer text -> what the summary adds to its badge counts ("; 2 factual sentences without a citation")

  function connect() {
    if (port) return port;
    port = api.runtime.connect({ name: "citemark" });
    port.onMessage.addListener(onHostMessage);
    port.onDisconnect.addListener(() => {
      port = null;
    });
    return port;
  }

  function send(message) {
    try {
      connect().postMessage(message);
    } catch {
      port = null;
      connect().postMessage(message);
    }
  }

  // ------------------------------------------------------------------ keys

  const norm = (text) => (text || "").replace(/\s+/g, " ").trim();
  const cacheKey = (key, url) => `${key}\u0000${url}`;

  /** Each citation's claim key: the text of its paragraph and its place among that paragraph's citations. */
  function claimKeys(content, citations) {
    const keys = new Map();
    const counts = new Map();
    for (const citation of citations) {
      const block = citation.element.closest(BLOCK);
      const scope = block && content.contains(block) ? block : content;
      const n = counts.get(scope) || 0;
      counts.set(scope, n + 1);
      keys.set(citation, `${norm(scope.textContent)}\u0000${n}`);
    }
    return keys;
  }

  function fingerprint(answer) {
    const citations = answer.citations.map((c) => c.sources.map((s) => s.url).join(",") || c.label).join("|");
    return `${norm(answer.content.textContent).length}:${citations}`;
  }

  // ------------------------------------------------------------------ scanning

  function scan() {
    if (!enabled || !site.read) return;
    if (location.href !== pageUrl) navigated();
    const read = site.read(document);
    lastRead = read;
    const now = Date.now();
    let unsettled = false;
    for (const answer of read.answers) {
      if (answer.finished === false) continue;
      const print = fingerprint(answer);
      const state = seen.get(answer.element);
      if (!state || state.print !== print) {
        if (answer.finished === null) {
          // No "finished" signal on this layout: wait until the answer stops changing.
          seen.set(answer.element, { print, at: now, verified: false, request: state?.request });
          unsettled = true;
          continue;
        }
        verify(answer, print);
      } else if (!state.verified) {
        if (now - state.at < DEBOUNCE_MS) {
          unsettled = true;
          continue;
        }
        verify(answer, print);
      } else {
        reattach(answer, print);
      }
    }
    publish();
    if (unsettled) schedule();
  }

  /** Badges a re-render took away come back from what this tab already knows. */
  function reattach(answer, print) {
    const lost = answer.citations.some((c) => !records.get(c.element.getAttribute("data-citemark-ref") || ""));
    if (lost) {
      verify(answer, print);
      return;
    }
    for (const citation of answer.citations) {
      const record = records.get(citation.element.getAttribute("data-citemark-ref"));
      if (record.badge.isConnected || !record.drawn) continue;
      draw.attach(citation.element, record.badge, answer.content);
    }
    const textKey = norm(answer.content.textContent);
    if (summaries.has(textKey) && !answer.content.querySelector(":scope > [data-citemark-summary]")) drawSummary(answer.content, textKey);
  }

  function forget(content) {
    for (const [ref, record] of records) {
      if (record.content === content || !record.element.isConnected) records.delete(ref);
    }
    for (const old of content.querySelectorAll("[data-citemark-ui]")) old.remove();
  }

  function verify(answer, print) {
    const previous = seen.get(answer.element)?.request;
    if (previous && requests.has(previous)) {
      send({ type: "cancel", id: previous });
      requests.delete(previous);
    }
    forget(answer.content);
    seen.set(answer.element, { print, at: Date.now(), verified: true });
    if (!answer.citations.length) return;
    const keys = claimKeys(answer.content, answer.citations);
    const textKey = norm(answer.content.textContent);
    const made = answer.citations.map((citation) => track(citation, answer.content, keys.get(citation), textKey));
    const fromCache = made.every((record) => record.sources.every((found) => verdicts.has(cacheKey(record.key, found.url))));
    if (fromCache) {
      for (const record of made) {
        for (const found of record.sources) Object.assign(found, { state: "done", verdict: verdicts.get(cacheKey(record.key, found.url)) });
        show(record);
      }
      return;
    }
    const id = `r${++counter}`;
    const sources = new Map();
    for (const record of made) for (const found of record.sources) sources.set(found.ref, { record, found });
    requests.set(id, { content: answer.content, textKey, sources });
    seen.get(answer.element).request = id;
    for (const record of made) show(record);
    send({ type: "verify", id, answer: { format: "html", content: forHost(answer.content, made) }, page_url: location.href,
      coverage: listUncited, policy });
  }

  /** Tag a citation and make its record: one entry per source, a pending badge beside it. */
  function track(citation, content, key, textKey) {
    const ref = `c${++refCounter}`;
    citation.element.setAttribute("data-citemark-ref", ref);
    const record = {
      ref, element: citation.element, content, key, textKey, kind: citation.kind, label: citation.label, pill: citation.pill,
      deferred: citation.deferred, badge: draw.pendingBadge(ref), drawn: false,
      sources: citation.sources.map((found, i) => ({ ...found, ref: `${ref}.${i}`, state: "pending" })),
    };
    records.set(ref, record);
    return record;
  }

  function show(record) {
    if (!draw.render(record.badge, record)) {
      record.badge.remove();
      record.drawn = false;
      return;
    }
    if (!record.badge.isConnected) draw.attach(record.element, record.badge, record.content);
    record.drawn = true;
    if (summaries.has(record.textKey)) drawSummary(record.content, record.textKey);
  }

  /** The answer's summary counts its badges as they read now, so the two always agree (a grouped badge is one citation). */
  function drawSummary(content, textKey) {
    if (!content.isConnected) return;
    const badges = [...records.values()].filter((r) => r.content === content && r.drawn).map((r) => r.badge);
    draw.summaryChip(content, draw.summaryText(badges) + summaries.get(textKey));
  }

  /** Plain links for the host, one per source; their text (the site's name) is not part of the claim. */
  function anchors(sources, label) {
    const nodes = [];
    for (const found of sources) {
      const a = document.createElement("a");
      a.setAttribute("href", found.url);
      a.setAttribute("data-citemark-ref", found.ref);
      a.setAttribute("data-citemark-pill", "");
      a.textContent = found.site || label || "source";
      nodes.push(a, document.createTextNode(" "));
    }
    return nodes;
  }

  /** The answer's HTML as the host reads it: our UI removed, every citation an <a href> per known source. */
  function forHost(content, made) {
    const copy = content.cloneNode(true);
    for (const ours of copy.querySelectorAll("[data-citemark-ui]")) ours.remove();
    for (const record of made) {
      const node = copy.querySelector(`[data-citemark-ref="${record.ref}"]`);
      if (!node) continue;
      if (record.kind === "link" || record.kind === "footnote") {
        if (record.kind === "link") node.setAttribute("href", record.sources[0].url); // the source, not a site's redirect to it
        node.setAttribute("data-citemark-ref", record.sources[0].ref);
        if (record.pill) node.setAttribute("data-citemark-pill", "");
      } else {
        node.replaceWith(...anchors(record.sources, record.label));
      }
    }
    return copy.innerHTML;
  }

  /** One paragraph for the host, with only `sources` of `record` as its citations (a chip the user just opened). */
  function paragraphForHost(record, sources) {
    const block = record.element.closest(BLOCK);
    const copy = (block && record.content.contains(block) ? block : record.content).cloneNode(true);
    for (const ours of copy.querySelectorAll("[data-citemark-ui]")) ours.remove();
    for (const node of [...copy.querySelectorAll("[data-citemark-ref]")]) {
      const other = records.get(node.getAttribute("data-citemark-ref"));
      if (other === record) node.replaceWith(...anchors(sources, record.label));
      else if (!other || other.pill) node.remove();
      else node.replaceWith(document.createTextNode(node.textContent));
    }
    return copy.outerHTML;
  }

  function navigated() {
    pageUrl = location.href;
    for (const id of requests.keys()) send({ type: "cancel", id });
    requests.clear();
    draw.hideCard();
    for (const [ref, record] of records) if (!record.element.isConnected) records.delete(ref);
  }

  // ------------------------------------------------------------------ chips the user opens

  const sameUrl = (a, b) => a.replace(/[#?].*$/, "").replace(/\/$/, "") === b.replace(/[#?].*$/, "").replace(/\/$/, "");
  const names = (found, label) => [found.title, found.site, adapters.domainOf(found.url)].some((name) =>
    name && label && (name.toLowerCase().includes(label.toLowerCase()) || label.toLowerCase().includes(name.toLowerCase())));

  function onOpenGesture(event) {
    if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
    const target = event.target;
    if (!(target instanceof Element)) return;
    const ours = target.closest("[data-citemark-ui]");
    // Our badge inside the site's pill is part of the pill: the pointer on it opens the site's card as well.
    const ref = ours ? ours.closest("[data-citemark-pillbox]") && ours.getAttribute("data-citemark-for")
      : (target.closest("[data-citemark-ref]") || target.closest("[data-citemark-pillbox]")?.querySelector("[data-citemark-ref]"))
        ?.getAttribute("data-citemark-ref");
    const record = ref && records.get(ref);
    if (record?.deferred && !record.watching) watchForSources(record);
  }

  /** After the user opens a chip, read the links its card or dialog shows and check the ones this citation lacked. */
  function watchForSources(record) {
    record.watching = true;
    const started = Date.now();
    const poll = () => {
      let links = adapters.overlayLinks(lastRead?.overlay).filter((found) => !record.sources.some((known) => sameUrl(known.url, found.url)));
      links = links.filter((found, i) => links.findIndex((other) => sameUrl(other.url, found.url)) === i);
      if (!record.sources.length && record.label) {
        const named = links.filter((found) => names(found, record.label));
        if (named.length) links = named;
      }
      links = links.slice(0, record.deferred);
      if (links.length) {
        record.watching = false;
        checkOpened(record, links);
      } else if (Date.now() - started < OPEN_WAIT_MS && record.badge.isConnected) {
        setTimeout(poll, 150);
      } else {
        record.watching = false;
      }
    };
    setTimeout(poll, 100);
  }

  function checkOpened(record, links) {
    const start = record.sources.length;
    const added = links.map((found, i) => ({ ...found, site: names(found, record.label) ? record.label : found.site,
      ref: `${record.ref}.${start + i}`, state: "pending", opened: true }));
    record.sources.push(...added);
    record.deferred = Math.max(0, record.deferred - added.length);
    const asking = added.filter((found) => {
      const known = verdicts.get(cacheKey(record.key, found.url));
      if (known) Object.assign(found, { state: "done", verdict: known });
      return !known;
    });
    show(record);
    if (!asking.length) return;
    const id = `r${++counter}`;
    requests.set(id, { content: null, sources: new Map(asking.map((found) => [found.ref, { record, found }])) });
    send({ type: "verify", id, answer: { format: "html", content: paragraphForHost(record, asking) }, page_url: location.href, policy });
  }

  // ------------------------------------------------------------------ replies

  function settle(request, message) {
    const touched = new Set();
    for (const { record, found } of request.sources.values()) {
      if (found.state !== "pending") continue;
      found.state = "error";
      found.message = message;
      touched.add(record);
    }
    for (const record of touched) show(record);
  }

  function onHostMessage(message) {
    if (message.type === "host-missing") {
      for (const record of records.values()) record.badge.remove();
      records.clear();
      requests.clear();
      draw.hostMissingNotice(message.message || "native host not found", message.advice);
      return;
    }
    if (message.type === "selection-result") {
      showSelectionResult(message);
      return;
    }
    const request = requests.get(message.id);
    if (!request) return;
    if (message.type === "accepted") {
      const judged = new Set(message.citations.map((c) => c.citation.ref).filter(Boolean));
      const touched = new Set();
      for (const [ref, { record, found }] of request.sources) {
        if (judged.has(ref)) continue;
        found.state = "skipped";
        touched.add(record);
      }
      for (const record of touched) show(record);
    } else if (message.type === "verdict") {
      const entry = request.sources.get(message.verdict.citation.ref);
      if (!entry) return;
      Object.assign(entry.found, { state: "done", verdict: message.verdict });
      verdicts.set(cacheKey(entry.record.key, entry.found.url), message.verdict);
      show(entry.record);
    } else if (message.type === "done") {
      if (request.content) {
        summaries.set(request.textKey, coverageWords(message.coverage));
        if (!request.content.isConnected) schedule(); // the turn was re-mounted meanwhile: draw it there
      }
      settle(request, "no verdict came back");
      if (request.content) drawSummary(request.content, request.textKey);
      requests.delete(message.id);
    } else if (message.type === "error" || message.type === "cancelled") {
      settle(request, message.message || message.type);
      requests.delete(message.id);
    }
    publish();
  }

  // ------------------------------------------------------------------ the self-check

  /** What citemark reads on this page: no page text, only which layout matched and how much. */
  function selfCheck({ full = false } = {}) {
    if (!site.read) return { site: null, state: "other-site", host: location.hostname };
    const read = lastRead || site.read(document);
    const all = read.citations;
    const badges = [...document.querySelectorAll(".citemark-badge[data-citemark-for]")];
    let state = "ok";
    if (!enabled) state = "off";
    else if (!read.answers.length) state = read.answerShown || read.prose >= 200 || read.unreadable > 0 ? "blind" : "empty";
    else if (read.fallback) state = all.length ? "fallback" : "blind";
    else if (!all.length && read.unreadable > 0) state = "blind";
    return {
      site: site.name,
      siteLabel: site.label,
      host: location.hostname,
      state,
      layout: read.layout,
      fallback: read.fallback,
      citationFallback: read.citationFallback,
      answers: read.answers.length,
      finished: read.answers.filter((a) => a.finished !== false).length,
      streaming: read.answers.filter((a) => a.finished === false).length,
      citations: all.length,
      sources: all.reduce((n, c) => n + c.sources.length, 0),
      deferred: all.reduce((n, c) => n + c.deferred, 0),
      unreadable: read.unreadable,
      badges: badges.length,
      verdicts: badges.filter((b) => b.hasAttribute("data-citemark-verdict")).length,
      layoutsTried: full ? site.layouts.map((candidate) => ({
        layout: candidate.name,
        selectors: Object.fromEntries(Object.entries(candidate.selectors).map(([k, v]) => [k, String(v)])),
        answers: candidate.answers(document).length,
      })) : undefined,
      fallbackTried: read.tried.find((t) => t.layout === "fallback")?.answers ?? null,
      proseChars: read.prose,
    };
  }

  /** Tell the toolbar when this page's citations cannot be read (or only through the fallback). */
  function publish() {
    const check = selfCheck();
    const line = `${check.state}:${check.answers}:${check.citations}`;
    if (line === published) return;
    published = line;
    try {
      api.runtime.sendMessage({ type: "page-state", state: check.state, answers: check.answers, citations: check.citations, site: check.siteLabel })
        .catch?.(() => {});
    } catch {
      // the extension is reloading
    }
  }

  // ------------------------------------------------------------------ "Verify citation" (context menu)

  let selectionTarget = null;

  /** The sentence around the selection (or the link) and the link it should be checked against. */
  function selectionContext(linkUrl) {
    const selection = window.getSelection();
    let text = selection && selection.toString().trim();
    let anchorNode = selection && selection.rangeCount ? selection.getRangeAt(0).endContainer : null;
    let link = null;
    if (linkUrl) {
      link = [...document.querySelectorAll("a[href]")].find((a) => a.href === linkUrl) || null;
      anchorNode = anchorNode || link;
    }
    const block = (anchorNode && (anchorNode.nodeType === 1 ? anchorNode : anchorNode.parentElement)?.closest("p, li, td, blockquote, div")) || null;
    if (!link && block) link = nearestLink(block, anchorNode);
    if (!text && link) text = sentenceAround(link);
    selectionTarget = link || block;
    return { text: stripUi(text || ""), url: link ? link.href : linkUrl || null };
  }

  function nearestLink(block, node) {
    const links = [...block.querySelectorAll("a[href]")].filter(adapters.isCitationLink);
    if (!links.length) {
      const outer = block.parentElement?.closest("article, section, main, div");
      return outer ? [...outer.querySelectorAll("a[href]")].filter(adapters.isCitationLink)[0] || null : null;
    }
    if (!node) return links[0];
    const after = links.find((a) => node.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING);
    return after || links[links.length - 1];
  }

  function sentenceAround(link) {
    const block = link.closest("p, li, td, blockquote") || link.parentElement;
    const range = document.createRange();
    range.selectNodeContents(block);
    range.setEndBefore(link);
    const before = range.toString();
    const start = Math.max(before.lastIndexOf(". "), before.lastIndexOf("! "), before.lastIndexOf("? "));
    const head = before.slice(start + 1);
    const tailRange = document.createRange();
    tailRange.selectNodeContents(block);
    tailRange.setStartAfter(link);
    const after = tailRange.toString();
    const stop = after.search(/[.!?](\s|$)/);
    return (head + (stop >= 0 ? after.slice(0, stop + 1) : after)).trim();
  }

  function stripUi(text) {
    return text.replace(/[✔◐✘○⚠$⊗?] (supported|partial|contradicted|unsupported|unreachable|paywalled|retracted|unverifiable)/g, "").trim();
  }

  function showSelectionResult(message) {
    const target = selectionTarget;
    let badge = target && target.nextElementSibling?.matches?.(".citemark-badge[data-citemark-selection]")
      ? target.nextElementSibling : null;
    if (!badge) {
      badge = draw.pendingBadge("selection");
      badge.setAttribute("data-citemark-selection", "");
      if (target) target.after(badge);
      else document.body.prepend(badge);
    }
    const found = { url: message.verdict?.citation?.url || "", title: "", site: "", state: "pending" };
    if (message.verdict) Object.assign(found, { state: "done", verdict: message.verdict });
    else if (!message.pending) Object.assign(found, { state: "error", message: message.message || "could not check" });
    draw.render(badge, { sources: [found], deferred: 0 });
  }

  api.runtime.onMessage.addListener((message, sender, reply) => {
    if (message?.type === "ping-content") {
      reply({ ok: true });
      return false;
    }
    if (message?.type === "self-check") {
      if (site.read && enabled) lastRead = site.read(document);
      reply(selfCheck({ full: true }));
      return false;
    }
    if (message?.type === "host-missing") {
      draw.hostMissingNotice(message.message || "native host not found", message.advice);
      return false;
    }
    if (message?.type === "selection-context") {
      reply(selectionContext(message.linkUrl));
      return false;
    }
    if (message?.type === "selection-pending") {
      showSelectionResult({ pending: true });
      return false;
    }
    if (message?.type === "selection-result") {
      showSelectionResult(message);
      return false;
    }
    if (message?.type === "reverify") {
      for (const ui of document.querySelectorAll("[data-citemark-ui]")) ui.remove();
      for (const id of requests.keys()) send({ type: "cancel", id });
      requests.clear();
      records.clear();
      verdicts.clear();
      summaries.clear();
      for (const answer of lastRead?.answers || []) seen.delete(answer.element);
      scan();
      reply({ ok: true });
      return false;
    }
    return false;
  });

  // ------------------------------------------------------------------ start

  let debounce = null;
  let deadline = null;
  function run() {
    clearTimeout(debounce);
    clearTimeout(deadline);
    debounce = deadline = null;
    scan();
  }
  function schedule() {
    clearTimeout(debounce);
    debounce = setTimeout(run, DEBOUNCE_MS);
    if (!deadline) deadline = setTimeout(run, MAX_WAIT_MS);
  }

  const ours = (node) => node.nodeType === 1 && Boolean(node.closest("[data-citemark-ui]"));
  /** Our own drawing (badges, cards) is not a change of the page; a badge the site removed is. */
  const drawnByUs = (record) => ours(record.target) ||
    (record.type === "childList" && record.addedNodes.length > 0 && !record.removedNodes.length && [...record.addedNodes].every(ours));

  /** What the summary adds when the user asked for the answer's uncited factual sentences. */
  function coverageWords(coverage) {
    if (!coverage) return "";
    const uncited = coverage.uncited?.length || 0;
    return uncited === 0 ? "; every factual sentence cites a source" : `; ${uncited} factual sentence${uncited === 1 ? "" : "s"} without a citation`;
  }

  async function start() {
    try {
      const stored = await api.storage.sync.get({ disabledSites: [], listUncited: false, policy: "strict" });
      enabled = !stored.disabledSites.includes(location.hostname);
      listUncited = stored.listUncited === true;
      policy = stored.policy === "balanced" ? "balanced" : "strict";
    } catch {
      enabled = true;
    }
    // The popup's choices reach open pages at once (the next request, or "Re-verify this page", uses them).
    api.storage.onChanged?.addListener((changes) => {
      if (changes.policy) policy = changes.policy.newValue === "balanced" ? "balanced" : "strict";
      if (changes.listUncited) listUncited = changes.listUncited.newValue === true;
    });
    if (!site.read) return; // other sites: only the context menu, on demand
    if (!enabled) {
      publish();
      return;
    }
    new MutationObserver((changes) => {
      if (changes.every(drawnByUs)) return;
      schedule();
    }).observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true,
      attributeFilter: ["class", "id", "aria-busy", "aria-label", "data-is-streaming", "data-message-complete", "data-message-streaming",
        "data-chatgpt-selection-message-id", "data-state"] });
    for (const type of ["pointerover", "focusin", "click", "keydown"]) document.addEventListener(type, onOpenGesture, true);
    window.addEventListener("popstate", schedule);
    schedule();
  }

  start();
})();
