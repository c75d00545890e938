// The built documentation site in a real headless browser (Debian's
// chromium), with the DevTools-protocol harness of the matrix page's test
// (crates/idx-conformance/tests/browser/cdp.mjs), no npm packages:
//
//   node site_browser.mjs SITE_DIR
//
// Serves SITE_DIR (mkdocs build's output) on 127.0.0.1 and checks that the
// home page, a rule page and the search load with no console error, no
// exception and no request to any other host; that the rule page shows
// its example's output; and that searching for a rule code lists its page.
// Exit 1 on the first failed check. CHROMIUM names the browser.

import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";
import { launch } from "../../crates/idx-conformance/tests/browser/cdp.mjs";

const started = Date.now();
const [siteArg] = process.argv.slice(2);
if (!siteArg) {
  console.error("usage: node site_browser.mjs SITE_DIR");
  process.exit(2);
}
const site = resolve(siteArg);
const RULE = "IDX203";

// --- a static server for the site, on a port the system picks
const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
  ".xml": "application/xml",
};
const server = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
  let file = join(site, path);
  try {
    if (!file.startsWith(site)) throw new Error("outside the site");
    if ((await stat(file)).isDirectory()) file = join(file, "index.html");
    const body = await readFile(file);
    res.writeHead(200, { "content-type": types[extname(file)] || "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end("not found");
  }
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const origin = `http://127.0.0.1:${server.address().port}`;

const b = launch("site");
const { problems, requests } = b;
function fail(msg) {
  server.close();
  b.fail(msg);
}

// --- the home page
let s = await b.open(`${origin}/index.html`);
const home = await b.js(s, `({ title: document.title, h1: document.querySelector('h1')?.textContent,
  nav: [...document.querySelectorAll('nav a')].map(a => a.getAttribute('href')) })`);
if (!home.title.includes("idx-toolkit")) fail(`home page title ${JSON.stringify(home.title)}`);
if (!home.nav.some((h) => h && h.includes("rules/index.html"))) fail(`no link to the rules in the navigation: ${home.nav.slice(0, 20)}`);

// --- the search, from the home page: the rule's code finds its page
const found = await b.js(
  s,
  `new Promise((ok) => {
    const input = document.querySelector('input[data-md-component="search-query"]');
    if (!input) return ok({ error: "no search field" });
    input.focus();
    input.value = ${JSON.stringify(RULE)};
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new KeyboardEvent('keyup', { bubbles: true, key: '3' }));
    const t0 = Date.now();
    (function poll() {
      const links = [...document.querySelectorAll('.md-search-result__link')].map(a => a.getAttribute('href'));
      if (links.length || Date.now() - t0 > 20000) ok({ links, meta: document.querySelector('.md-search-result__meta')?.textContent });
      else setTimeout(poll, 100);
    })();
  })`,
);
if (found.error) fail(found.error);
if (!found.links.some((h) => h.includes(`rules/${RULE}.html`))) fail(`searching ${RULE}: ${JSON.stringify(found)}`);

// --- a rule page: its generated sections and the tool's output
s = await b.open(`${origin}/rules/${RULE}.html`);
const rule = await b.js(s, `({ h1: document.querySelector('h1')?.textContent,
  h2: [...document.querySelectorAll('h2')].map(h => h.textContent.replace(/¶$/, '').trim()),
  console: [...document.querySelectorAll('pre code')].map(c => c.textContent).join('\\n') })`);
if (!rule.h1 || !rule.h1.startsWith(`${RULE} `)) fail(`rule page heading ${JSON.stringify(rule.h1)}`);
for (const h of ["What the spec says", "Who gets it wrong", "Example", "Fix"])
  if (!rule.h2.includes(h)) fail(`rule page lacks the section ${h}: ${rule.h2}`);
if (!rule.console.includes(`error[${RULE}]`)) fail(`rule page shows no error[${RULE}] output`);

const outside = requests.filter((u) => !u.startsWith(origin) && !u.startsWith("data:") && u !== "about:blank");
if (outside.length) fail(`requests to other hosts: ${outside.join(", ")}`);
if (problems.length) fail(`console: ${problems.join(" | ")}`);
b.finish();
server.close();
console.log(
  `site: ok: the home page, the search (${RULE}: ${found.links.length} results) and rules/${RULE}.html ` +
    `load with no console errors and no requests to other hosts; ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
