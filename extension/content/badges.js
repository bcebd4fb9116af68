// Drawing: badges beside citations, the hover/focus card, the summary chip, the host-missing notice.
//
// Badge text is CSS generated content (`::after { content: attr(data-label) }`), so
// a badge adds no text node to the page: selecting and copying an answer never
// copies a badge. Each badge carries data-citemark-verdict (or
// data-citemark-pending) as a stable hook for tests and user styles.
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
  const INSTALL_HINT = "pip install citemark && citemark install";

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
    return badge;
  }

  function setVerdict(badge, verdict) {
    const look = VERDICTS[verdict.verdict] || VERDICTS.unverifiable;
    badge.removeAttribute("data-citemark-pending");
    badge.setAttribute("data-citemark-verdict", verdict.verdict);
    badge.setAttribute("data-label", `${look.glyph} ${look.word}`);
    badge.setAttribute("role", "button");
    badge.setAttribute("tabindex", "0");
    badge.setAttribute("aria-haspopup", "dialog");
    badge.setAttribute("aria-label", `citemark: ${look.word}. ${verdict.explanation || ""}`);
    badge.citemarkVerdict = verdict;
    if (!badge.citemarkWired) {
      badge.citemarkWired = true;
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
          showCard(badge);
          card?.querySelector("a")?.focus();
        } else if (event.key === "Escape") {
          hideCard();
        }
      });
    }
  }

  function setFailure(badge, message) {
    badge.removeAttribute("data-citemark-pending");
    badge.setAttribute("data-citemark-verdict", "error");
    badge.setAttribute("data-label", "citemark: not checked");
    badge.setAttribute("aria-label", `citemark could not check this citation: ${message}`);
    badge.title = message;
  }

  const WORD = /[\p{L}\p{N}]+/gu;

  /** The quote with the words it shares with the claim marked. */
  function highlighted(quote, claim) {
    const wanted = new Set((claim.toLowerCase().match(WORD) || []).filter((w) => w.length > 3 || /\d/.test(w)));
    const fragment = document.createDocumentFragment();
    let last = 0;
    for (const match of quote.matchAll(WORD)) {
      if (!wanted.has(match[0].toLowerCase())) continue;
      fragment.append(quote.slice(last, match.index));
      fragment.append(el("mark", { text: match[0] }));
      last = match.index + match[0].length;
    }
    fragment.append(quote.slice(last));
    return fragment;
  }

  function domainOf(url) {
    try {
      return new URL(url).hostname.replace(/^www\./, "");
    } catch {
      return url || "";
    }
  }

  function showCard(badge) {
    const verdict = badge.citemarkVerdict;
    if (!verdict) return;
    clearTimeout(badge.citemarkHide);
    hideCard();
    const look = VERDICTS[verdict.verdict] || VERDICTS.unverifiable;
    const url = verdict.citation?.url || "";
    const evidence = verdict.evidence;
    const id = `citemark-card-${Math.random().toString(36).slice(2)}`;
    card = el("div", {
      class: "citemark-card",
      id,
      role: "dialog",
      "aria-label": `citemark: ${look.word}`,
      "data-citemark-ui": "",
      "data-citemark-card-verdict": verdict.verdict,
    });
    card.append(
      el("div", { class: "citemark-card-verdict", "data-citemark-verdict": verdict.verdict, text: `${look.glyph} ${look.word}` }),
      el("div", { class: "citemark-card-label", text: "Claim" }),
      el("p", { class: "citemark-card-claim", text: verdict.claim }),
    );
    if (evidence?.quote) {
      const quote = el("blockquote", { class: "citemark-card-quote" });
      quote.append(highlighted(evidence.quote, verdict.claim));
      card.append(el("div", { class: "citemark-card-label", text: verdict.verdict === "supported" ? "Evidence" : "Closest passage" }), quote);
    }
    card.append(
      el("p", { class: "citemark-card-reason", text: verdict.explanation || "" }),
      el("p", { class: "citemark-card-source" }, [
        el("span", { class: "citemark-card-title", text: verdict.source_title || domainOf(url) }),
        el("span", { class: "citemark-card-domain", text: ` · ${domainOf(url)}` }),
      ]),
    );
    const target = evidence?.link || url;
    if (target) {
      card.append(el("a", { class: "citemark-card-link", href: target, target: "_blank", rel: "noopener noreferrer",
        text: evidence?.link ? "Open the source at this passage ↗" : "Open the source ↗" }));
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
    if (box.bottom + height + 12 > window.innerHeight && box.top > height + 12) {
      popup.style.top = `${window.scrollY + box.top - height - 6}px`;
    }
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

  function summaryChip(container, summary) {
    container.querySelector(":scope > .citemark-summary")?.remove();
    const chip = el("div", {
      class: "citemark-summary",
      "data-citemark-ui": "",
      "data-citemark-summary": "",
      "data-label": `citemark: ${summary.text}`,
      role: "status",
      "aria-label": `citemark: ${summary.text}`,
    });
    container.append(chip);
    return chip;
  }

  let noticeShown = false;

  function hostMissingNotice(message) {
    if (noticeShown) return;
    noticeShown = true;
    const notice = el("div", { class: "citemark-notice", role: "alert", "data-citemark-ui": "", "data-citemark-notice": "host-missing" }, [
      el("strong", { text: "citemark can't check citations yet: its local helper is not installed." }),
      el("span", { text: " Install it with: " }),
      el("code", { text: INSTALL_HINT }),
      el("span", { text: ` (${message})` }),
    ]);
    const close = el("button", { type: "button", class: "citemark-notice-close", "aria-label": "Dismiss", text: "×" });
    close.addEventListener("click", () => notice.remove());
    notice.append(close);
    document.body.append(notice);
  }

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") hideCard();
  });
  document.addEventListener("scroll", () => cardOwner && card && place(card, cardOwner), { passive: true });

  globalThis.citemarkBadges = { VERDICTS, INSTALL_HINT, pendingBadge, setVerdict, setFailure, summaryChip, hostMissingNotice, hideCard };
})();
