// Toolbar popup and options page: is the host reachable (and the exact fix if not), the model,
// what citemark reads on this page (or that it cannot read it), "copy diagnostics",
// per-site on/off, uncited sentences on/off, the judging policy, and "re-verify this page".
//
// The popup reads the active tab; `popup.html?tab=<id>` reads that tab instead (the
// options page opened from a chat tab, and the tests, which cannot open the toolbar).
"use strict";

const api = globalThis.browser ?? globalThis.chrome;
const $ = (id) => document.getElementById(id);

async function activeTab() {
  const wanted = Number(new URLSearchParams(location.search).get("tab"));
  if (wanted) return api.tabs.get(wanted);
  const [tab] = await api.tabs.query({ active: true, currentWindow: true });
  return tab;
}

/** The host's state; resolves to whether it is installed and serving (the page line depends on it). */
async function showHost() {
  const status = await api.runtime.sendMessage({ type: "popup-status" });
  const state = $("host-state");
  const hello = status?.hello;
  $("host-model").textContent = !hello ? "" : hello.model
    ? `Model: ${hello.model}`
    : "Model: none — lexical-only checks (word overlap, numbers and names).";
  if (status?.installed) {
    state.dataset.state = "ok";
    state.textContent = `Local helper ${hello.version} is running.`;
    $("host-fix").hidden = true;
    return true;
  }
  // missing | forbidden (another extension id) | version (another release) | error (could not start)
  const advice = status?.advice || { state: "error", title: "The local helper could not be reached.", commands: ["citemark doctor"], detail: "" };
  state.dataset.state = advice.state;
  state.textContent = advice.title;
  $("host-command").textContent = advice.commands.join("\n");
  $("host-detail").textContent = advice.detail;
  $("host-reason").textContent = status?.reason ? `The browser said: ${status.reason}` : "";
  $("host-fix").hidden = false;
  return false;
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The popup's sentence for a page's self-check (see content.js). */
function describe(check) {
  const counts = `on this page: ${plural(check.answers, "answer")}, ${plural(check.citations, "citation")}`;
  const read = check.layout && !check.fallback ? `Read as ${check.siteLabel} (${check.layout} layout).` : "";
  switch (check.state) {
    case "ok":
      return { text: counts[0].toUpperCase() + counts.slice(1), detail: [read,
        check.deferred ? `${plural(check.deferred, "source")} shown only when you open a chip: open it to check.` : "",
        check.streaming ? `${plural(check.streaming, "answer")} still being written.` : ""].filter(Boolean).join(" ") };
    case "fallback":
      return { text: `${counts[0].toUpperCase() + counts.slice(1)} — read by citemark's structural fallback: ${check.siteLabel}'s layout may have changed.`,
        detail: "Badges may be missing. Copy the diagnostics into an issue so the adapter can be fixed." };
    case "blind":
      return { text: "citemark cannot read this page's citations — the site's layout may have changed.",
        detail: "Copy the diagnostics into an issue so the adapter can be fixed. Select a sentence and use “Verify citation” meanwhile." };
    case "empty":
      return { text: "No answers on this page yet.", detail: read };
    case "off":
      return { text: "Checking is off on this site.", detail: "" };
    default:
      return { text: "citemark does not read answers on this site.", detail: "Select a sentence with a link and use “Verify citation”." };
  }
}

let lastCheck = null;

async function showPage(hostReady) {
  const tab = await activeTab();
  const state = $("page-state");
  let check = null;
  try {
    check = await api.tabs.sendMessage(tab.id, { type: "self-check" });
  } catch {
    check = null;
  }
  lastCheck = check || { state: "other-site", host: hostOf(tab.url) };
  const { text, detail } = describe(lastCheck);
  // Without the helper nothing on the page is checked: the counts are not a green light.
  const unchecked = !(await hostReady) && ["ok", "fallback"].includes(lastCheck.state) && lastCheck.citations > 0;
  state.dataset.state = unchecked ? "unchecked" : lastCheck.state;
  state.textContent = unchecked ? `${text.replace(/ — .*/, "")} — not checked: the local helper is not running.` : text;
  $("page-detail").textContent = detail;
  $("copy-diagnostics").hidden = !check;
}

function hostOf(url) {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}

/** The selectors tried and what each matched; no page text and no page address beyond its host. */
function diagnostics(check) {
  return JSON.stringify({
    citemark: api.runtime.getManifest().version,
    browser: navigator.userAgent,
    at: new Date().toISOString(),
    ...check,
  }, null, 2);
}

$("copy-diagnostics").addEventListener("click", async () => {
  await showPage(hostReady);
  const text = diagnostics(lastCheck);
  const shown = $("diagnostics");
  shown.textContent = text;
  shown.hidden = false;
  try {
    await navigator.clipboard.writeText(text);
    $("copy-state").textContent = "Copied — it holds no page text.";
  } catch {
    $("copy-state").textContent = "Select the text below and copy it.";
  }
});

async function showCoverageChoice() {
  const box = $("list-uncited");
  box.checked = (await api.storage.sync.get({ listUncited: false })).listUncited === true;
  box.addEventListener("change", () => api.storage.sync.set({ listUncited: box.checked }));
}

/** How strictly the host judges ("strict", its default, or "balanced"); sent with every verify request. */
async function showPolicy() {
  const choice = $("policy");
  choice.value = (await api.storage.sync.get({ policy: "strict" })).policy === "balanced" ? "balanced" : "strict";
  choice.addEventListener("change", () => api.storage.sync.set({ policy: choice.value }));
}

async function showSite() {
  const tab = await activeTab();
  const host = hostOf(tab?.url || "");
  $("site-name").textContent = host || "this site";
  const { disabledSites } = await api.storage.sync.get({ disabledSites: [] });
  const box = $("site-enabled");
  box.checked = !disabledSites.includes(host);
  box.disabled = !host;
  box.addEventListener("change", async () => {
    const current = (await api.storage.sync.get({ disabledSites: [] })).disabledSites.filter((h) => h !== host);
    if (!box.checked) current.push(host);
    await api.storage.sync.set({ disabledSites: current });
  });
}

$("reverify").addEventListener("click", async () => {
  const tab = await activeTab();
  try {
    await api.tabs.sendMessage(tab.id, { type: "reverify" });
    $("reverify-state").textContent = "Checking again…";
  } catch {
    $("reverify-state").textContent = "Nothing to check on this page.";
  }
});

const hostReady = showHost();
showPage(hostReady);
showSite();
showCoverageChoice();
showPolicy();
