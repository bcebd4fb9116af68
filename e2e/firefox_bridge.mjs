// Drives firefox-esr over WebDriver BiDi with puppeteer-core for the Python e2e suite (Playwright cannot drive stock Firefox).
//
// One JSON command per line on stdin, one JSON reply per line on stdout:
//   {"id": 1, "cmd": "launch", "firefox": "/usr/bin/firefox-esr", "profile": DIR, "env": {...}, "extension": DIR,
//    "uuid": UUID, "pages": [[url prefix, html], ...]}
//   {"id": 2, "cmd": "newPage", "url": URL} -> {"value": page id}
//   {"cmd": "evaluate" | "waitFor", "page": id, "js": "(arg) => ...", "arg": ..., "timeout": ms}
//   {"cmd": "background", "js": "(bg, arg) => ...", "arg": ...}  (bg: the extension's background page)
//   {"cmd": "hover" | "click" | "focus", "page": id, "selector": CSS}, {"cmd": "press", "page": id, "key": "Escape"},
//   {"cmd": "mouseMove", "page": id, "x": 0, "y": 0}, {"cmd": "goto", "page": id, "url": URL},
//   {"cmd": "screenshot", "page": id, "path": FILE, "fullPage": bool},
//   {"cmd": "closePage", "page": id}, {"cmd": "close"}
// Replies: {"id": 1, "ok": true, "value": ...} or {"id": 1, "ok": false, "error": "..."}.
// Chat-site URLs are answered with the fixture page whose prefix matches; every other request but the
// extension's own is aborted, so the pages never reach the network.
import { createInterface } from "node:readline";
import puppeteer from "puppeteer-core";

let browser = null;
let config = null;
let background = null;
const pages = new Map();
let nextPage = 1;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const call = (js, extra = "") => new Function("arg", `return (${js})(arg${extra})`);

function fixtureFor(url) {
  const match = config.pages.find(([prefix]) => url.startsWith(prefix));
  return match ? match[1] : null;
}

async function route(request) {
  const url = request.url();
  if (url.startsWith("moz-extension://") || url.startsWith("about:") || url.startsWith("data:")) return request.continue();
  const body = fixtureFor(url);
  if (body !== null && request.isNavigationRequest()) {
    return request.respond({ status: 200, contentType: "text/html; charset=utf-8", body });
  }
  return request.abort();
}

/** Open `url` in `page`. Extension pages load in another process, which puppeteer's goto does not follow: poll instead. */
async function open(page, url) {
  if (!url.startsWith("moz-extension://")) {
    await page.goto(url, { waitUntil: "load" });
    return;
  }
  page.goto(url).catch(() => {});
  const started = Date.now();
  while (Date.now() - started < 20000) {
    try {
      if (await page.evaluate((wanted) => location.href === wanted && document.readyState === "complete", url)) return;
    } catch {
      // the document is being replaced
    }
    await sleep(100);
  }
  throw new Error(`${url} did not load`);
}

async function newPage(url) {
  const page = await browser.newPage();
  await page.setRequestInterception(true);
  page.on("request", (request) => route(request).catch(() => {}));
  if (url) await open(page, url);
  const id = nextPage++;
  pages.set(id, page);
  return id;
}

const commands = {
  async launch(message) {
    config = message;
    browser = await puppeteer.launch({
      browser: "firefox",
      executablePath: message.firefox,
      headless: true,
      userDataDir: message.profile,
      defaultViewport: null, // Firefox 140's BiDi has no screen-orientation override, which setViewport needs
      // Firefox 153 lets WebDriver open only http(s), file, blob and about:blank unless system access is allowed;
      // the suite opens the extension's own pages (the popup, and its background through them).
      args: ["--width=1100", "--height=900", "--remote-allow-system-access"],
      env: message.env,
      extraPrefsFirefox: {
        "extensions.webextensions.uuids": JSON.stringify({ [message.geckoId]: message.uuid }),
        "network.proxy.type": 0,
        "browser.safebrowsing.malware.enabled": false,
        "browser.safebrowsing.phishing.enabled": false,
      },
    });
    await browser.installExtension(message.extension);
    return browser.version();
  },
  newPage: (message) => newPage(message.url),
  goto: (message) => open(pages.get(message.page), message.url),
  evaluate: (message) => pages.get(message.page).evaluate(call(message.js), message.arg),
  // Polled from here: puppeteer's waitForFunction builds its poller with `new Function` in the page, which an
  // extension page's CSP forbids.
  async waitFor(message) {
    const page = pages.get(message.page);
    const started = Date.now();
    let last = null;
    while (Date.now() - started < message.timeout) {
      try {
        const value = await page.evaluate(call(`async (arg) => { const v = await (${message.js})(arg); return v instanceof Node || v === true ? true : v; }`), message.arg);
        if (value) return value;
      } catch (error) {
        last = error; // the document is being replaced
      }
      await sleep(100);
    }
    throw new Error(`timed out after ${message.timeout} ms waiting for ${message.js}${last ? ` (last error: ${last})` : ""}`);
  },
  async background(message) {
    if (!background || background.isClosed()) {
      background = await browser.newPage();
      await open(background, `moz-extension://${config.uuid}/popup.html`);
    }
    const js = `async (arg) => { const bg = await browser.runtime.getBackgroundPage(); return (${message.js})(bg, arg); }`;
    return background.evaluate(call(js), message.arg);
  },
  hover: (message) => pages.get(message.page).hover(message.selector),
  click: (message) => pages.get(message.page).click(message.selector),
  focus: (message) => pages.get(message.page).focus(message.selector),
  press: (message) => pages.get(message.page).keyboard.press(message.key),
  mouseMove: (message) => pages.get(message.page).mouse.move(message.x, message.y),
  async screenshot(message) {
    await pages.get(message.page).screenshot({ path: message.path, fullPage: Boolean(message.fullPage) });
  },
  async closePage(message) {
    await pages.get(message.page)?.close();
    pages.delete(message.page);
  },
  async close() {
    await browser?.close();
    browser = null;
  },
};

const lines = createInterface({ input: process.stdin });
let queue = Promise.resolve();
lines.on("line", (line) => {
  queue = queue.then(async () => {
    const message = JSON.parse(line);
    let reply;
    try {
      const value = await commands[message.cmd](message);
      reply = { id: message.id, ok: true, value: value === undefined ? null : value };
    } catch (error) {
      reply = { id: message.id, ok: false, error: String(error?.stack || error) };
    }
    process.stdout.write(JSON.stringify(reply) + "\n");
    if (message.cmd === "close") process.exit(0);
  });
});
lines.on("close", async () => {
  await queue;
  await browser?.close().catch(() => {});
  process.exit(0);
});
