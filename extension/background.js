// Service worker: one native port to org.citemark.host, multiplexed for every tab.
//
// Content scripts connect with runtime.connect; their requests get host-wide ids
// ("<tab>:<local id>") and replies are routed back. The port is opened on first
// use and reopened after the host exits. When the host is not installed (or allows another
// extension id), every waiting tab is told once, with the command that fixes it. Requests of a tab that
// navigates away or closes are cancelled (a request belongs to the page URL it
// was sent from, so the new page of a single-page app keeps its own). The
// toolbar badge warns, per tab, when a chat page's citations cannot be read.
// The context menu "Verify citation" checks a selected sentence against a link
// on any site.
"use strict";

const api = globalThis.browser ?? globalThis.chrome;
const HOST = "org.citemark.host";
const MENU_ID = "citemark-verify";

let nativePort = null;
let hostError = null; // last reason the host could not be reached
let hello = null;
let nextId = 1;
const routes = new Map(); // host request id -> {port, localId, tabId} or {resolve} for internal calls
const tabPorts = new Map(); // tabId -> Set(port)
let verifyRequests = 0; // every verify a page sent to the host (tests count re-attached badges against it)
let lastPolicy = null; // the policy of the last verify sent (tests check the popup's choice reaches the host)

function connectHost() {
  if (nativePort) return nativePort;
  try {
    nativePort = api.runtime.connectNative(HOST);
  } catch (error) {
    hostGone(String(error && error.message || error));
    return null;
  }
  hostError = null;
  nativePort.onMessage.addListener(fromHost);
  nativePort.onDisconnect.addListener(() => {
    const reason = api.runtime.lastError?.message || nativePort?.error?.message || "the citemark host exited";
    nativePort = null;
    hostGone(reason);
  });
  return nativePort;
}

/**
 * Why the host cannot be reached, from the browser's own message: "missing" (no manifest for this
 * browser or profile), "forbidden" (a manifest that allows another extension id; Chromium only:
 * Firefox reports that as missing), or "error" (registered, but it could not be started or it exited).
 */
function hostState(reason) {
  if (/forbidden|access to the specified native/i.test(reason)) return "forbidden";
  if (/not found|no such native application|not registered/i.test(reason)) return "missing";
  return "error";
}

function isMissing(reason) {
  return hostState(reason) !== "error";
}

/** What the popup and the page hint tell the user: real commands of this project (README → Install). */
function hostAdvice(state, versions = {}) {
  const doctor = "citemark doctor";
  switch (state) {
    case "missing":
      return { state, title: "The local helper is not installed for this browser.",
        commands: ["./installer/install.sh", doctor],
        detail: "Run the installer in a clone of citemark (Windows: installer\\install.ps1; README → Install), then " +
          "“citemark doctor”, which starts the helper as each browser does and prints the exact fix. A browser started " +
          "with --user-data-dir DIR needs “citemark install --user-data-dir DIR”." };
    case "forbidden":
      return { state, title: `The local helper is installed, but it does not allow this extension (id ${api.runtime.id}).`,
        commands: [`citemark install --extension-id ${api.runtime.id}`, doctor],
        detail: "Its host manifest names another extension id: allow this one, then check with “citemark doctor”." };
    case "version":
      return { state, title: `The local helper is citemark ${versions.host}, this extension is ${versions.extension}.`,
        commands: ["./installer/install.sh", doctor],
        detail: "Install the helper and the extension from the same release (README → Install), then check with “citemark doctor”." };
    default:
      return { state: "error", title: "The local helper is registered but could not be started.",
        commands: [doctor],
        detail: "“citemark doctor” starts it the way this browser does and prints the exact fix." };
  }
}

function hostGone(reason) {
  hostError = reason;
  hello = null;
  const notified = new Set();
  for (const [id, route] of routes) {
    if (route.resolve) route.resolve({ type: "error", code: "HOST", message: reason });
    else if (route.port && !notified.has(route.port)) {
      notified.add(route.port);
      safePost(route.port, isMissing(reason)
        ? { type: "host-missing", message: reason, advice: hostAdvice(hostState(reason)) }
        : { type: "error", id: route.localId, code: "HOST", message: reason });
    }
    routes.delete(id);
  }
}

function toHost(message) {
  const port = connectHost();
  if (!port) return false;
  try {
    port.postMessage({ v: 1, ...message });
    return true;
  } catch (error) {
    nativePort = null;
    hostGone(String(error && error.message || error));
    return false;
  }
}

function fromHost(message) {
  const route = routes.get(message.id);
  if (message.type === "hello" && route?.resolve) hello = message;
  if (!route) return;
  if (route.resolve) {
    if (["hello", "pong", "status", "done", "error", "cancelled"].includes(message.type) || route.collect) {
      if (route.collect) route.collect(message);
      if (["hello", "pong", "status", "done", "error", "cancelled"].includes(message.type)) {
        routes.delete(message.id);
        route.resolve(message);
      }
    }
    return;
  }
  safePost(route.port, { ...message, id: route.localId });
  if (["done", "error", "cancelled"].includes(message.type)) routes.delete(message.id);
}

function safePost(port, message) {
  try {
    port.postMessage(message);
  } catch {
    // the tab went away; its requests are cancelled by onDisconnect
  }
}

/** Ask the host something and wait for the answer (internal: popup, context menu). */
function ask(message, collect) {
  return new Promise((resolve) => {
    const id = `bg:${nextId++}`;
    routes.set(id, { resolve, collect });
    if (!toHost({ ...message, id })) {
      routes.delete(id);
      resolve({ type: "error", code: "HOST", message: hostError || "citemark host unavailable" });
    }
  });
}

// ------------------------------------------------------------------ content scripts

api.runtime.onConnect.addListener((port) => {
  if (port.name !== "citemark") return;
  const tabId = port.sender?.tab?.id ?? -1;
  if (!tabPorts.has(tabId)) tabPorts.set(tabId, new Set());
  tabPorts.get(tabId).add(port);
  port.onMessage.addListener((message) => {
    if (!message || typeof message !== "object") return;
    const hostId = `${tabId}:${message.id}`;
    if (message.type === "cancel") {
      toHost({ type: "cancel", id: hostId });
      return;
    }
    if (message.type !== "verify") return;
    routes.set(hostId, { port, localId: message.id, tabId, pageUrl: withoutHash(message.page_url) });
    verifyRequests += 1;
    lastPolicy = message.policy === "balanced" ? "balanced" : "strict";
    const request = { type: "verify", id: hostId, answer: message.answer, page_url: message.page_url, policy: lastPolicy };
    if (message.coverage === true) request.coverage = true; // opt-in: the host then lists uncited sentences
    if (!toHost(request)) {
      routes.delete(hostId);
      safePost(port, isMissing(hostError || "") ? { type: "host-missing", message: hostError, advice: hostAdvice(hostState(hostError)) }
        : { type: "error", id: message.id, code: "HOST", message: hostError });
    }
  });
  port.onDisconnect.addListener(() => {
    tabPorts.get(tabId)?.delete(port);
    cancelWhere((route) => route.port === port);
  });
});

function cancelWhere(predicate) {
  for (const [id, route] of routes) {
    if (route.port && predicate(route)) {
      if (nativePort) toHost({ type: "cancel", id });
      routes.delete(id);
    }
  }
}

function withoutHash(url) {
  return String(url || "").replace(/#.*$/, "");
}

api.tabs.onUpdated.addListener((tabId, change) => {
  if (change.url) cancelWhere((route) => route.tabId === tabId && route.pageUrl !== withoutHash(change.url));
});
api.tabs.onRemoved.addListener((tabId) => cancelWhere((route) => route.tabId === tabId));

// ------------------------------------------------------------------ popup / options

const PAGE_WARNINGS = {
  blind: (site) => `citemark cannot read this page's citations — ${site}'s layout may have changed`,
  fallback: (site) => `citemark is reading this page with its structural fallback — ${site}'s layout may have changed`,
};

/** The toolbar badge of a tab: "!" when the page's citations cannot be read, or only through the fallback. */
function showPageState(tabId, state, site) {
  const warning = PAGE_WARNINGS[state];
  api.action.setBadgeText({ tabId, text: warning ? "!" : "" })?.catch?.(() => {});
  api.action.setTitle({ tabId, title: warning ? warning(site || "the site") : "citemark" })?.catch?.(() => {});
  if (warning) api.action.setBadgeBackgroundColor?.({ tabId, color: "#9a6700" })?.catch?.(() => {});
}

api.runtime.onMessage.addListener((message, sender, reply) => {
  if (message?.type === "page-state" && sender.tab?.id !== undefined) {
    showPageState(sender.tab.id, message.state, message.site);
    return false;
  }
  if (message?.type === "popup-status") {
    ask({ type: "hello" }).then((answer) => {
      const extension = api.runtime.getManifest().version;
      if (answer.type === "hello" && answer.version === extension) {
        reply({ installed: true, state: "ok", hello: answer });
      } else if (answer.type === "hello") {
        reply({ installed: false, state: "version", hello: answer, advice: hostAdvice("version", { host: answer.version, extension }) });
      } else {
        const state = hostState(answer.message || "");
        reply({ installed: false, state, missing: state !== "error", reason: answer.message, advice: hostAdvice(state) });
      }
    });
    return true;
  }
  return false;
});

// ------------------------------------------------------------------ context menu

function createMenu() {
  api.contextMenus.removeAll(() => {
    api.contextMenus.create({ id: MENU_ID, title: "Verify citation", contexts: ["link", "selection"] });
  });
}
api.runtime.onInstalled.addListener(createMenu);
api.runtime.onStartup?.addListener(createMenu);

async function ensureContentScript(tabId) {
  try {
    await api.tabs.sendMessage(tabId, { type: "ping-content" });
    return;
  } catch {
    // not injected on this site yet
  }
  await api.scripting.insertCSS({ target: { tabId }, files: ["content/badges.css"] });
  await api.scripting.executeScript({ target: { tabId }, files: ["content/adapters.js", "content/badges.js", "content/content.js"] });
}

/** The click handler of "Verify citation" (exported for tests: context menus cannot be clicked). */
async function verifySelection(info, tab) {
  await ensureContentScript(tab.id);
  const context = await api.tabs.sendMessage(tab.id, { type: "selection-context", linkUrl: info.linkUrl || null });
  const text = (context?.text || info.selectionText || "").trim();
  const url = context?.url || info.linkUrl;
  if (!text || !url) {
    api.tabs.sendMessage(tab.id, { type: "selection-result", message: "select a sentence with a link (or right-click a link)" });
    return;
  }
  api.tabs.sendMessage(tab.id, { type: "selection-pending" });
  let verdict = null;
  const { policy } = await api.storage.sync.get({ policy: "strict" });
  const answer = await ask({ type: "verify_selection", text, url, page_url: tab.url, policy: policy === "balanced" ? "balanced" : "strict" }, (message) => {
    if (message.type === "verdict") verdict = message.verdict;
  });
  if (answer.type === "error" && isMissing(answer.message || "")) {
    api.tabs.sendMessage(tab.id, { type: "host-missing", message: answer.message, advice: hostAdvice(hostState(answer.message)) });
  }
  api.tabs.sendMessage(tab.id, verdict ? { type: "selection-result", verdict } : { type: "selection-result", message: answer.message });
}

api.contextMenus.onClicked.addListener((info, tab) => {
  if (info.menuItemId === MENU_ID && tab?.id !== undefined) verifySelection(info, tab);
});

globalThis.citemark = { verifySelection, ask, status: () => ({ hostError, hello, inFlight: routes.size, verifyRequests, lastPolicy }) };
