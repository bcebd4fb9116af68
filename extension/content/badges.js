// Drawing: badges beside citations, the hover/focus card, the summary chip, the host-missing notice.
//
// Badge text is CSS generated content (`::after { content: attr(data-label) }`), so
// a badge adds no text node to the page: selecting and copying an answer never
// copies a badge. Each badge carries data-citemark-verdict (or
// data-citemark-pending, or data-citemark-deferred) as a stable hook for tests
// and user styles. A badge draws one citation, which may name several sources
// (a grouped pill): it shows the group's outcome and its card lists every source.
"use strict";

(() => {
  if (globalThis.citemarkBadges) return;

  const VERDICTS = {
    supported: { glyph: "✔", word: "supported" },
    partial: { glyph: "◐", word: "partial" },
    contradicted: { glyph: "✘", word: "contradicted" },
    unsupported: { glyph: "○", word: "unsupported" },
    unreachable: { glyph: "⚠", word: "unreachable" },
    paywalled: { glyph: "$", word: "paywalled" },
    retracted: { glyph: "⊗", word: "retracted" },
    unverifiable: { glyph: "?", word: "unverifiable" },
  };
  /**
   * Which source's verdict a grouped citation shows: the claim is as well supported as its best
   * source, and a source that says otherwise outranks one that is silent or could not be read.
   * Every source's own verdict stays in the card.
   */
  const GROUP_ORDER = ["supported", "partial", "contradicted", "retracted", "unsupported", "paywalled", "unverifiable", "unreachable"];
  /** The page hint when the background sent no advice (README → Install). */
  const INSTALL_HINT = { title: "citemark can't check citations yet: its local helper is not installed.",
    commands: ["./installer/install.sh", "citemark doctor"] };

  const el = (tag, attrs = {}, children = []) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null) continue;
      if (key === "text") node.textContent = value;
      else node.setAttribute(key, value);
    }
    for (const child of children) node.append(child);
    return node;
  };

  let card = null;
  let cardOwner = null;

  function pendingBadge(ref) {
    const badge = el("span", {
      class: "citemark-badge",
      "data-citemark-ui": "",
      "data-citemark-pending": "",
      "data-citemark-for": ref,
      "data-label": "checking",
      role: "status",
      "aria-label": "citemark: checking this citation",
      tabindex: "-1",
      contenteditable: "false",
    });
    wire(badge);
    return badge;
  }

  // ------------------------------------------------------------------ placement

  const display = (node) => getComputedStyle(node).display;
  const isInline = (node) => display(node).startsWith("inline") || display(node) === "contents";
  const isAtomic = (node) => /^inline-(block|flex|grid|table)$/.test(display(node));
  const textOf = (node) => (node.textContent || "").replace(/\s+/g, " ").trim();
  const BLOCK = "p, li, td, th, blockquote, h1, h2, h3, h4, h5, h6, dd, dt";
  /** A badge's text is this share of its paragraph's font size, whatever the chip it sits in (chips are often 10-12 px). */
  const BADGE_SCALE = 0.72;

  /**
   * Put a badge right after its citation, on the same line. The badge goes inside the
   * citation's "pill box" (the outermost inline wrapper holding only the citation), and
   * that box does not wrap, so the badge can never land on a line of its own: when the
   * pill does not fit, pill and badge move to the next line together.
   */
  function attach(target, badge, within) {
    const block = target.closest(BLOCK);
    const paragraph = block && within?.contains(block) ? block : within || target.parentElement;
    badge.style.fontSize = `${(parseFloat(getComputedStyle(paragraph).fontSize) * BADGE_SCALE).toFixed(2)}px`;
    let box = target;
    for (let depth = 0; depth < 4; depth++) {
      const parent = box.parentElement;
      if (!parent || parent === within || !within?.contains(parent) || !isInline(parent) || textOf(parent) !== textOf(target)) break;
      box = parent;
    }
    const inside = box.tagName !== "BUTTON" && (box !== target || box.tagName !== "A" || isAtomic(box));
    if (inside) {
      box.setAttribute("data-citemark-pillbox", "");
      box.append(badge);
    } else {
      box.after(badge);
    }
  }

  // ------------------------------------------------------------------ state

  /**
   * Draw a citation's state: `record.sources` ({url, title, site, state, verdict, message}) and
   * `record.deferred` (sources the page does not show until the user opens the chip).
   * Returns false when nothing is left to draw (the host judged none of its sources).
   */
  function render(badge, record) {
    badge.citemarkRecord = record;
    const known = record.sources.filter((s) => s.state !== "skipped");
    const total = known.length + record.deferred;
    if (!total) return false;
    const judged = known.filter((s) => s.verdict);
    const pending = known.some((s) => s.state === "pending");
    const failed = known.filter((s) => s.state === "error");
    for (const name of ["data-citemark-pending", "data-citemark-verdict", "data-citemark-deferred"]) badge.removeAttribute(name);
    badge.setAttribute("data-citemark-sources", String(total));
    if (record.deferred) badge.setAttribute("data-citemark-deferred", String(record.deferred));
    if (pending) badge.setAttribute("data-citemark-pending", "");
    badge.removeAttribute("title");

    if (judged.length) {
      const outcome = GROUP_ORDER.find((word) => judged.some((s) => s.verdict.verdict === word)) || "unverifiable";
      const look = VERDICTS[outcome];
      const agreeing = judged.filter((s) => s.verdict.verdict === outcome).length;
      // "2/3" counts only sources that were checked: a source nobody checked is named as such, never counted as disagreeing.
      const unchecked = total - judged.length - known.filter((s) => s.state === "pending").length;
      const share = judged.length > 1 ? ` ${agreeing}/${judged.length}` : "";
      badge.setAttribute("data-citemark-verdict", outcome);
      badge.setAttribute("data-label", `${look.glyph} ${look.word}${share}${unchecked ? ` · ${unchecked} unchecked` : ""}`);
      const single = total === 1 ? judged[0].verdict.explanation || ""
        : `${judged.length > 1 ? `${agreeing} of ${judged.length} checked sources` : "The checked source"}: ${look.word}.`;
      const later = record.deferred ? ` ${record.deferred} more source${record.deferred > 1 ? "s" : ""} not checked yet: open the site's source card to check.` : "";
      interactive(badge, `citemark: ${look.word}. ${single}${later}`);
    } else if (pending) {
      badge.setAttribute("data-label", "checking");
      badge.setAttribute("role", "status");
      badge.setAttribute("aria-label", "citemark: checking this citation");
    } else if (failed.length) {
      badge.setAttribute("data-citemark-verdict", "error");
      badge.setAttribute("data-label", "citemark: not checked");
      const message = failed[0].message || "could not check";
      interactive(badge, `citemark could not check this citation: ${message}`);
      badge.title = message;
    } else {
      badge.setAttribute("data-label", "open to check");
      interactive(badge, "citemark: this site shows the source's link only when you open it. Open the source to check it.");
      badge.title = "citemark checks this source when you open it";
    }
    if (cardOwner === badge && card) showCard(badge);
    return true;
  }

  function interactive(badge, label) {
    badge.setAttribute("role", "button");
    badge.setAttribute("tabindex", "0");
    badge.setAttribute("aria-haspopup", "dialog");
    badge.setAttribute("aria-label", label);
  }

  function wire(badge) {
    badge.addEventListener("mouseenter", () => showCard(badge));
    badge.addEventListener("focus", () => showCard(badge));
    badge.addEventListener("mouseleave", () => hideCardSoon(badge));
    badge.addEventListener("blur", () => hideCardSoon(badge));
    badge.addEventListener("click", (event) => {
      event.preventDefault();
      event.stopPropagation();
      showCard(badge);
    });
    badge.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        event.stopPropagation();
        showCard(badge);
        card?.querySelector("a")?.focus();
      } else if (event.key === "Escape") {
        hideCard();
      }
    });
  }

  // ------------------------------------------------------------------ the card

  const WORD = /[\p{L}\p{N}]+/gu;
  /** Verdicts whose card shows where claim and source differ (the host's `differences`), never the words they share. */
  const SHOWS_DIFFERENCES = new Set(["partial", "contradicted"]);

  /** `text` with the spans [start, end) marked. */
  function marked(text, spans) {
    const fragment = document.createDocumentFragment();
    let last = 0;
    for (const [start, end] of [...spans].sort((a, b) => a[0] - b[0])) {
      if (start < last) continue;
      fragment.append(text.slice(last, start), el("mark", { text: text.slice(start, end) }));
      last = end;
    }
    fragment.append(text.slice(last));
    return fragment;
  }

  /** Where `wanted` is in `text`: at the host's offsets when they hold it, else its first occurrence. */
  function locate(text, wanted, start, end) {
    if (!wanted) return null;
    if (Number.isInteger(start) && text.slice(start, end) === wanted) return [start, end];
    const at = text.indexOf(wanted);
    return at < 0 ? null : [at, at + wanted.length];
  }

  /** The spans of `text` (the claim, or the quote) that differ from the other side, from the verdict's `differences`. */
  function differingSpans(verdict, side, text) {
    if (!SHOWS_DIFFERENCES.has(verdict.verdict) || !Array.isArray(verdict.differences)) return [];
    return verdict.differences.map((d) => d && locate(text, d[`${side}_text`], d[`${side}_start`], d[`${side}_end`])).filter(Boolean);
  }

  /** A supported quote marks the words it shares with the claim; partial and contradicted ones mark only what differs. */
  function quoteSpans(verdict, claim) {
    const quote = verdict.evidence.quote;
    if (SHOWS_DIFFERENCES.has(verdict.verdict)) return differingSpans(verdict, "passage", quote);
    if (verdict.verdict !== "supported") return [];
    const wanted = new Set((claim.toLowerCase().match(WORD) || []).filter((w) => w.length > 3 || /\d/.test(w)));
    return [...quote.matchAll(WORD)].filter((m) => wanted.has(m[0].toLowerCase())).map((m) => [m.index, m.index + m[0].length]);
  }

  function domainOf(url) {
    try {
      return new URL(url).hostname.replace(/^www\./, "");
    } catch {
      return url || "";
    }
  }

  /** "Title · site": the site as the chat page names it (pill label, attribution), else the URL's domain; never twice. */
  function sourceLine(found) {
    const url = found.verdict?.citation?.url || found.url || "";
    const site = found.site || domainOf(url);
    const title = found.verdict?.source_title || found.title || site;
    const line = el("p", { class: "citemark-card-source" }, [el("span", { class: "citemark-card-title", text: title })]);
    if (site && site.toLowerCase() !== title.toLowerCase()) line.append(el("span", { class: "citemark-card-domain", text: ` · ${site}` }));
    return line;
  }

  function evidence(found, claim, opened) {
    const verdict = found.verdict;
    const parts = [];
    if (verdict.evidence?.quote) {
      const quote = el("blockquote", { class: "citemark-card-quote" });
      quote.append(marked(verdict.evidence.quote, quoteSpans(verdict, claim)));
      parts.push(el("div", { class: "citemark-card-label", text: verdict.verdict === "supported" ? "Evidence" : "Closest passage" }), quote);
    }
    parts.push(el("p", { class: "citemark-card-reason", text: verdict.explanation || "" }), sourceLine(found));
    const target = verdict.evidence?.link || verdict.citation?.url || found.url;
    if (target) {
      parts.push(el("a", { class: "citemark-card-link", href: target, target: "_blank", rel: "noopener noreferrer",
        text: verdict.evidence?.link ? "Open the source at this passage ↗" : "Open the source ↗" }));
    }
    if (opened) parts.push(el("p", { class: "citemark-card-note", text: "Checked when you opened the source: the page shows its link only then." }));
    return parts;
  }

  function showCard(badge) {
    const record = badge.citemarkRecord;
    if (!record || badge.hasAttribute("data-citemark-pending") && !badge.hasAttribute("data-citemark-verdict")) return;
    clearTimeout(badge.citemarkHide);
    hideCard();
    const outcome = badge.getAttribute("data-citemark-verdict") || "deferred";
    const look = VERDICTS[outcome] || { glyph: "…", word: outcome === "error" ? "not checked" : "open to check" };
    const known = record.sources.filter((s) => s.state !== "skipped");
    const claim = known.find((s) => s.verdict)?.verdict.claim || "";
    const id = `citemark-card-${Math.random().toString(36).slice(2)}`;
    card = el("div", { class: "citemark-card", id, role: "dialog", "aria-label": `citemark: ${look.word}`, "data-citemark-ui": "",
      "data-citemark-card-verdict": outcome });
    card.append(el("div", { class: "citemark-card-verdict", "data-citemark-verdict": outcome, text: `${look.glyph} ${look.word}` }));
    if (claim) {
      const shown = known.find((s) => s.verdict?.verdict === outcome)?.verdict;
      const claimLine = el("p", { class: "citemark-card-claim" });
      claimLine.append(marked(claim, shown ? differingSpans(shown, "claim", claim) : []));
      card.append(el("div", { class: "citemark-card-label", text: "Claim" }), claimLine);
    }
    const group = known.length + record.deferred > 1;
    if (!group && known[0]?.verdict) {
      card.append(...evidence(known[0], claim, known[0].opened));
    } else {
      const list = el("ol", { class: "citemark-card-sources" });
      for (const found of known) {
        const item = el("li", { "data-citemark-source-verdict": found.verdict?.verdict || found.state });
        const word = found.verdict ? VERDICTS[found.verdict.verdict] || VERDICTS.unverifiable : null;
        item.append(el("div", { class: "citemark-card-verdict", "data-citemark-verdict": found.verdict?.verdict || "",
          text: word ? `${word.glyph} ${word.word}` : found.state === "error" ? `not checked: ${found.message || ""}` : "checking…" }));
        if (found.verdict) item.append(...evidence(found, claim, found.opened));
        else item.append(sourceLine(found));
        list.append(item);
      }
      card.append(list);
      if (record.deferred) {
        card.append(el("p", { class: "citemark-card-note", text: record.deferred === known.length + record.deferred
          ? "The site shows this source's link only when you open it: open the source and citemark checks it."
          : `${record.deferred} more source${record.deferred > 1 ? "s are" : " is"} shown only in the site's source card: open it and citemark checks ${record.deferred > 1 ? "them" : "it"}.` }));
      }
    }
    card.addEventListener("mouseenter", () => clearTimeout(badge.citemarkHide));
    card.addEventListener("mouseleave", () => hideCardSoon(badge));
    card.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        hideCard();
        badge.focus();
      }
    });
    card.addEventListener("focusout", (event) => {
      if (!card?.contains(event.relatedTarget) && event.relatedTarget !== badge) hideCardSoon(badge);
    });
    document.body.append(card);
    cardOwner = badge;
    badge.setAttribute("aria-describedby", id);
    badge.setAttribute("aria-expanded", "true");
    place(card, badge);
  }

  function place(popup, anchor) {
    const box = anchor.getBoundingClientRect();
    const width = Math.min(380, window.innerWidth - 16);
    popup.style.width = `${width}px`;
    const left = Math.max(8, Math.min(window.scrollX + box.left, window.scrollX + window.innerWidth - width - 8));
    popup.style.left = `${left}px`;
    popup.style.top = `${window.scrollY + box.bottom + 6}px`;
    const height = popup.getBoundingClientRect().height;
    if (box.bottom + height + 12 <= window.innerHeight) return;
    // Above the badge when it fits there, else as low as the window allows: the whole card stays in view.
    const top = box.top > height + 12 ? box.top - height - 6 : Math.max(8, window.innerHeight - height - 8);
    popup.style.top = `${window.scrollY + top}px`;
  }

  function hideCardSoon(badge) {
    clearTimeout(badge.citemarkHide);
    badge.citemarkHide = setTimeout(() => {
      if (cardOwner === badge && !card?.matches(":hover") && !card?.contains(document.activeElement)) hideCard();
    }, 250);
  }

  function hideCard() {
    if (cardOwner) {
      cardOwner.removeAttribute("aria-expanded");
      cardOwner.removeAttribute("aria-describedby");
    }
    card?.remove();
    card = null;
    cardOwner = null;
  }

  // ------------------------------------------------------------------ summary and notice

  /** What a badge shows, in the words the summary counts it by. */
  function shownAs(badge) {
    const verdict = badge.getAttribute("data-citemark-verdict");
    if (VERDICTS[verdict]) return VERDICTS[verdict].word;
    if (verdict === "error") return "not checked";
    return badge.hasAttribute("data-citemark-pending") ? "checking" : "open to check";
  }
  const SUMMARY_ORDER = [...Object.values(VERDICTS).map((v) => v.word), "open to check", "not checked", "checking"];

  /** "2 of 4 citations supported, 1 contradicted, 1 open to check": one count per badge, as each badge reads. */
  function summaryText(badges) {
    if (!badges.length) return "no citations found";
    const words = badges.map(shownAs);
    const count = (word) => words.filter((w) => w === word).length;
    const rest = SUMMARY_ORDER.filter((w) => w !== "supported" && count(w)).map((w) => `${count(w)} ${w}`);
    return [`${count("supported")} of ${badges.length} citation${badges.length === 1 ? "" : "s"} supported`, ...rest].join(", ");
  }

  /** The answer's summary line, updated in place as its badges change (so the page sees no new node each time). */
  function summaryChip(container, text) {
    let chip = container.querySelector(":scope > .citemark-summary");
    if (!chip) {
      chip = el("div", { class: "citemark-summary", "data-citemark-ui": "", "data-citemark-summary": "", role: "status" });
      container.append(chip);
    }
    chip.setAttribute("data-label", `citemark: ${text}`);
    chip.setAttribute("aria-label", `citemark: ${text}`);
    return chip;
  }

  /** Where chat sites keep the box the user types in: the notice stays clear of it. */
  const COMPOSER = "#prompt-textarea, textarea, [contenteditable='true'], [role='textbox'], form";
  let notice = null;

  /** Keep the notice above the lowest visible composer (or at the bottom right when there is none). */
  function placeNotice() {
    if (!notice?.isConnected) return;
    const tops = [...document.querySelectorAll(COMPOSER)].filter((node) => !notice.contains(node)).map((node) => node.getBoundingClientRect())
      .filter((box) => box.width > 0 && box.height > 0 && box.top > window.innerHeight / 3 && box.top < window.innerHeight).map((box) => box.top);
    const clear = tops.length ? window.innerHeight - Math.min(...tops) + 12 : 16;
    notice.style.bottom = `${Math.max(16, clear)}px`;
  }

  /** The first-run notice: what is wrong (not installed, or installed for another extension id) and the commands that fix it. */
  function hostMissingNotice(message, advice) {
    if (notice) return;
    const { title, commands } = advice?.commands?.length ? advice : INSTALL_HINT;
    const steps = commands.flatMap((command, i) => [el("span", { text: i ? ", then " : " Fix: " }), el("code", { text: command })]);
    notice = el("div", { class: "citemark-notice", role: "alert", "data-citemark-ui": "", "data-citemark-notice": "host-missing",
      "data-citemark-host-state": advice?.state || "missing" }, [
      el("strong", { text: advice?.title ? `citemark can't check citations yet: ${title[0].toLowerCase()}${title.slice(1)}` : title }),
      ...steps,
      el("span", { text: `. See README → Install. (${message})` }),
    ]);
    const close = el("button", { type: "button", class: "citemark-notice-close", "aria-label": "Dismiss", text: "×" });
    close.addEventListener("click", () => notice.remove());
    notice.append(close);
    document.body.append(notice);
    placeNotice();
    window.addEventListener("resize", placeNotice, { passive: true });
  }

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") hideCard();
  });
  document.addEventListener("scroll", () => cardOwner && card && place(card, cardOwner), { passive: true });

  globalThis.citemarkBadges = { VERDICTS, INSTALL_HINT, pendingBadge, attach, render, summaryText, summaryChip, hostMissingNotice, hideCard };
})();
