// The content script: finds finished answers, sends what it extracted, draws what the host decided.
//
// It watches the page with one debounced MutationObserver and does no work while
// an answer is still streaming. For each finished answer it tags every citation
// link with data-citemark-ref, sends a clean copy of the answer's HTML (our own
// UI removed) to the service worker, and puts a pending badge beside each link;
// verdicts then stream back one by one. It never decides a verdict.
"use strict";

(() => {
  if (globalThis.citemarkContent) return;
  globalThis.citemarkContent = true;

  const api = globalThis.browser ?? globalThis.chrome;
  const adapters = globalThis.citemarkAdapters;
  const draw = globalThis.citemarkBadges;
  const adapter = adapters.forHost(location.hostname);
  const DEBOUNCE_MS = 700;

  let port = null;
  let counter = 0;
  let refCounter = 0;
  let enabled = true;
  const requests = new Map(); // local request id -> {message, badges: Map(ref -> badge)}
  const done = new WeakMap(); // message element -> fingerprint of the answer it was checked for

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

  // ------------------------------------------------------------------ scanning

  function fingerprint(element) {
    const text = element.textContent || "";
    const links = adapter.citations(element).map((a) => a.href).join("|");
    return `${text.length}:${links}`;
  }

  function scan() {
    if (!enabled) return;
    for (const message of adapter.finishedMessages()) {
      const print = fingerprint(message);
      if (done.get(message) === print) continue;
      done.set(message, print);
      verifyMessage(message);
    }
  }

  function verifyMessage(message) {
    const content = adapter.content(message);
    const links = adapter.citations(message);
    if (!links.length) return;
    for (const old of content.querySelectorAll("[data-citemark-ui]")) old.remove();
    const badges = new Map();
    for (const link of links) {
      if (!link.dataset.citemarkRef) link.dataset.citemarkRef = `c${++refCounter}`;
      if (adapter.isPill(link)) link.setAttribute("data-citemark-pill", "");
      const badge = draw.pendingBadge(link.dataset.citemarkRef);
      link.after(badge);
      badges.set(link.dataset.citemarkRef, badge);
    }
    const copy = content.cloneNode(true);
    for (const ours of copy.querySelectorAll("[data-citemark-ui]")) ours.remove();
    const id = `r${++counter}`;
    requests.set(id, { message: content, badges, verdicts: 0 });
    send({ type: "verify", id, answer: { format: "html", content: copy.innerHTML }, page_url: location.href });
  }

  // ------------------------------------------------------------------ replies

  function onHostMessage(message) {
    if (message.type === "host-missing") {
      for (const request of requests.values()) for (const badge of request.badges.values()) badge.remove();
      requests.clear();
      draw.hostMissingNotice(message.message || "native host not found");
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
      for (const [ref, badge] of request.badges) if (!judged.has(ref)) badge.remove();
    } else if (message.type === "verdict") {
      const ref = message.verdict.citation.ref;
      const badge = request.badges.get(ref);
      if (badge) draw.setVerdict(badge, message.verdict);
      request.verdicts += 1;
    } else if (message.type === "done") {
      draw.summaryChip(request.message, message.summary);
      for (const badge of request.badges.values()) {
        if (badge.hasAttribute("data-citemark-pending")) draw.setFailure(badge, "no verdict came back");
      }
      requests.delete(message.id);
    } else if (message.type === "error" || message.type === "cancelled") {
      for (const badge of request.badges.values()) {
        if (badge.hasAttribute("data-citemark-pending")) draw.setFailure(badge, message.message || message.type);
      }
      requests.delete(message.id);
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
    if (message.verdict) draw.setVerdict(badge, message.verdict);
    else if (message.pending) return;
    else draw.setFailure(badge, message.message || "could not check");
  }

  api.runtime.onMessage.addListener((message, sender, reply) => {
    if (message?.type === "ping-content") {
      reply({ ok: true });
      return false;
    }
    if (message?.type === "host-missing") {
      draw.hostMissingNotice(message.message || "native host not found");
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
      for (const message of adapter.finishedMessages()) done.delete(message);
      scan();
      reply({ ok: true });
      return false;
    }
    return false;
  });

  // ------------------------------------------------------------------ start

  let timer = null;
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(scan, DEBOUNCE_MS);
  };

  async function start() {
    try {
      const stored = await api.storage.sync.get({ disabledSites: [] });
      enabled = !stored.disabledSites.includes(location.hostname);
    } catch {
      enabled = true;
    }
    if (adapter.name === "generic") return; // other sites: only the context menu, on demand
    if (!enabled) return;
    new MutationObserver((records) => {
      if (records.every((r) => [...r.addedNodes, r.target].every((n) => n.nodeType === 1 && n.closest?.("[data-citemark-ui]")))) return;
      schedule();
    }).observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true,
      attributeFilter: ["data-is-streaming", "class"] });
    schedule();
  }

  start();
})();
