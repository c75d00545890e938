// A real headless browser (Debian's chromium) driven over the DevTools
// protocol on a pipe (--remote-debugging-pipe), with no npm packages: the
// harness of the browser tests (matrix_page.mjs here, the web page's
// web/test/page.mjs, the documentation site's
// scripts/docs-site/site_browser.mjs).
//
//   const b = launch("matrix page");        // CHROMIUM names the browser
//   const s = await b.open(url);             // a tab; resolves once loaded
//   const v = await b.js(s, "document.title");
//   await b.until(s, "expr", "what");        // polls expr until truthy
//   b.problems, b.requests                   // console errors, every request
//   b.fail("message")                        // prints "<name>: FAIL: ...", exits 1
//   b.finish()                               // closes the browser
//
// Every check fails the whole run on the first failure; a run that has
// no result in `timeoutMs` fails with chromium's last words. `onFail`
// runs before a failure exits (to close a server, print more), and
// `open(url, { workers: true })` attaches to the page's workers too, so
// that their console, exceptions and requests count as the page's.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function launch(name, { timeoutMs = 60000, onFail = () => {} } = {}) {
  const profile = mkdtempSync(join(tmpdir(), "cdp-"));
  const browser = spawn(
    process.env.CHROMIUM || "chromium",
    [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-extensions",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--hide-scrollbars",
      "--force-device-scale-factor=1",
      "--force-color-profile=srgb",
      "--remote-debugging-pipe",
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] },
  );
  let stderr = "";
  let done = false;
  browser.stderr.on("data", (d) => (stderr += d));
  function cleanup() {
    try {
      browser.kill("SIGKILL");
    } catch {}
    try {
      rmSync(profile, { recursive: true, force: true });
    } catch {}
  }
  function fail(msg) {
    console.error(`${name}: FAIL: ${msg}`);
    done = true;
    try {
      onFail();
    } catch {}
    cleanup();
    process.exit(1);
  }
  const timer = setTimeout(() => fail(`no result in ${timeoutMs / 1000} s; chromium said: ${stderr.slice(-2000)}`), timeoutMs);
  browser.on("exit", (code) => {
    if (!done) fail(`chromium exited (${code}): ${stderr.slice(-2000)}`);
  });

  const toBrowser = browser.stdio[3];
  const fromBrowser = browser.stdio[4];
  let nextId = 1;
  const pending = new Map();
  const listeners = [];
  let buf = Buffer.alloc(0);
  fromBrowser.on("data", (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    let end;
    while ((end = buf.indexOf(0)) >= 0) {
      const msg = JSON.parse(buf.subarray(0, end).toString("utf8"));
      buf = buf.subarray(end + 1);
      if (msg.id && pending.has(msg.id)) {
        const { ok, ko } = pending.get(msg.id);
        pending.delete(msg.id);
        msg.error ? ko(new Error(JSON.stringify(msg.error))) : ok(msg.result);
      } else if (msg.method) {
        listeners.forEach((l) => l(msg));
      }
    }
  });
  function send(method, params = {}, sessionId) {
    const id = nextId++;
    const msg = { id, method, params };
    if (sessionId) msg.sessionId = sessionId;
    toBrowser.write(JSON.stringify(msg) + "\0");
    return new Promise((ok, ko) => pending.set(id, { ok, ko }));
  }
  function waitFor(method, sessionId) {
    return new Promise((ok) => listeners.push((m) => m.method === method && (!sessionId || m.sessionId === sessionId) && ok(m)));
  }

  // console errors and warnings, exceptions, failed loads; every request
  const problems = [];
  const requests = [];
  listeners.push((m) => {
    if (m.method === "Runtime.exceptionThrown") problems.push(`exception: ${JSON.stringify(m.params.exceptionDetails).slice(0, 300)}`);
    if (m.method === "Runtime.consoleAPICalled" && ["error", "assert", "warning"].includes(m.params.type))
      problems.push(`console.${m.params.type}: ${m.params.args.map((a) => a.value ?? a.description).join(" ")}`);
    if (m.method === "Log.entryAdded" && ["error", "warning"].includes(m.params.entry.level))
      problems.push(`log ${m.params.entry.level}: ${m.params.entry.text} ${m.params.entry.url || ""}`);
    if (m.method === "Network.requestWillBeSent") requests.push(m.params.request.url);
    if (m.method === "Target.attachedToTarget") {
      // a worker (open's `workers`): its console, exceptions and requests too
      const ws = m.params.sessionId;
      for (const d of ["Runtime", "Log", "Network"]) send(`${d}.enable`, {}, ws).catch(() => {});
      send("Runtime.runIfWaitingForDebugger", {}, ws).catch(() => {});
    }
  });

  // a new tab on `url`, 1600 x 1000, once its load event fired
  async function open(url, { width = 1600, height = 1000, workers = false } = {}) {
    const { targetId } = await send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
    for (const d of ["Page", "Runtime", "Log", "Network", "DOM"]) await send(`${d}.enable`, {}, sessionId);
    await send("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile: false }, sessionId);
    if (workers) await send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }, sessionId);
    const loaded = waitFor("Page.loadEventFired", sessionId);
    await send("Page.navigate", { url }, sessionId);
    await loaded;
    return sessionId;
  }

  // an expression's value in the tab (promises awaited)
  async function js(sessionId, expr) {
    const r = await send("Runtime.evaluate", { expression: expr, returnByValue: true, awaitPromise: true }, sessionId);
    if (r.exceptionDetails) fail(`evaluating ${expr.slice(0, 80)}: ${JSON.stringify(r.exceptionDetails).slice(0, 300)}`);
    return r.result.value;
  }

  // polls `expr` in the tab every 50 ms until it is truthy; fails after `ms`
  async function until(sessionId, expr, what, ms = 120000) {
    const t = Date.now();
    while (Date.now() - t < ms) {
      if (await js(sessionId, expr)) return;
      await new Promise((ok) => setTimeout(ok, 50));
    }
    fail(`timed out waiting for ${what}`);
  }

  function finish() {
    done = true;
    clearTimeout(timer);
    cleanup();
  }

  return { pid: browser.pid, send, waitFor, listeners, problems, requests, open, js, until, fail, finish };
}
