// Toolbar popup and options page: is the host reachable (and the exact fix if not), the model,
// per-site on/off, and "re-verify this page".
"use strict";

const api = globalThis.browser ?? globalThis.chrome;
const $ = (id) => document.getElementById(id);

async function activeTab() {
  const [tab] = await api.tabs.query({ active: true, currentWindow: true });
  return tab;
}

async function showHost() {
  const status = await api.runtime.sendMessage({ type: "popup-status" });
  const state = $("host-state");
  if (status?.installed) {
    const hello = status.hello;
    state.dataset.state = "ok";
    state.textContent = `Local helper ${hello.version} is running.`;
    $("host-model").textContent = hello.model
      ? `Model: ${hello.model}`
      : "Model: none — lexical-only checks (word overlap, numbers and names).";
    $("host-fix").hidden = true;
  } else {
    state.dataset.state = status?.missing ? "missing" : "error";
    state.textContent = status?.missing ? "The local helper is not installed." : "The local helper could not be started.";
    $("host-command").textContent = status?.fix || "pip install citemark && citemark install";
    $("host-reason").textContent = status?.reason || "";
    $("host-fix").hidden = false;
  }
}

async function showSite() {
  const tab = await activeTab();
  let host = "";
  try {
    host = new URL(tab.url).hostname;
  } catch {
    host = "";
  }
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

showHost();
showSite();
