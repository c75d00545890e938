// The matrix page in a real headless browser (Debian's chromium), driven
// over the DevTools protocol on a pipe by the harness of cdp.mjs, with no
// npm packages:
//
//   node matrix_page.mjs PAGE.html RESULTS.json...
//
// RESULTS are the runner's JSON results the page was made from
// (`matrix --results DIR`, `--merge FILE`). Checks that the page loads with
// no console error, no exception and no request outside itself; that every
// cell has a status and it is the one in the results; that the screenshot's
// colour of sampled cells is the legend's colour of that status; that the
// status and implementation filters hide what they should; that the column
// headings stay at the top and the case IDs at the left, opaque, while the
// grid scrolls under them; and that a cell opens its case's panel with the
// implementation's answer. Exit 1 on the
// first failed check. CHROMIUM names the browser (default: chromium);
// SCREENSHOT=FILE keeps the screenshot.

import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { inflateSync } from "node:zlib";
import { launch } from "./cdp.mjs";

const started = Date.now();
const [page, ...resultFiles] = process.argv.slice(2);
if (!page || resultFiles.length === 0) {
  console.error("usage: node matrix_page.mjs PAGE.html RESULTS.json...");
  process.exit(2);
}

const b = launch("matrix page");
const { send, problems, requests, fail } = b;

// --- the data the page was made from
const expected = new Map(); // "name mode" -> Map(case id -> status)
for (const f of resultFiles) {
  const v = JSON.parse(readFileSync(f, "utf8"));
  const m = new Map(v.results.map((r) => [r.id, r.status]));
  expected.set(`${v.implementation.name} ${v.mode}`, m);
}

// --- a minimal PNG decoder (8-bit RGB or RGBA, no interlace)
function decodePng(b) {
  let p = 8;
  let w, h, type;
  const idat = [];
  while (p < b.length) {
    const len = b.readUInt32BE(p);
    const kind = b.toString("latin1", p + 4, p + 8);
    const data = b.subarray(p + 8, p + 8 + len);
    if (kind === "IHDR") {
      w = data.readUInt32BE(0);
      h = data.readUInt32BE(4);
      if (data[8] !== 8 || data[12] !== 0) throw new Error("unsupported PNG");
      type = data[9];
    } else if (kind === "IDAT") idat.push(data);
    p += 12 + len;
  }
  const bpp = type === 6 ? 4 : type === 2 ? 3 : 0;
  if (!bpp) throw new Error(`PNG colour type ${type}`);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = w * bpp;
  const out = Buffer.alloc(h * stride);
  for (let y = 0; y < h; y++) {
    const f = raw[y * (stride + 1)];
    const src = y * (stride + 1) + 1;
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[y * stride + x - bpp] : 0;
      const up = y > 0 ? out[(y - 1) * stride + x] : 0;
      const c = x >= bpp && y > 0 ? out[(y - 1) * stride + x - bpp] : 0;
      let v = raw[src + x];
      if (f === 1) v += a;
      else if (f === 2) v += up;
      else if (f === 3) v += (a + up) >> 1;
      else if (f === 4) {
        const pa = Math.abs(up - c), pb = Math.abs(a - c), pc = Math.abs(a + up - 2 * c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? up : c;
      }
      out[y * stride + x] = v & 0xff;
    }
  }
  return { w, h, pixel: (x, y) => [...out.subarray(y * stride + x * bpp, y * stride + x * bpp + 3)] };
}

// --- the test
const url = pathToFileURL(resolve(page)).href;
const s = await b.open(url);
const js = (expr) => b.js(s, expr);

// every cell has a status, the one in the results
const grid = await js(`(() => {
  const cols = [...document.querySelectorAll('#impl-filter input')].map(i => i.dataset.name + ' ' + i.dataset.mode);
  const rows = [...document.querySelectorAll('#grid tr.case-row')].map(r => ({
    id: r.dataset.case,
    cells: [...r.querySelectorAll('td.c')].map(c => {
      const b = c.getBoundingClientRect();
      return { col: +c.dataset.col, status: c.dataset.status || '', x: b.left + scrollX, y: b.top + scrollY };
    }),
  }));
  const legend = [...document.querySelectorAll('[data-legend]')].map(e => {
    const b = e.getBoundingClientRect();
    return { status: e.dataset.legend, x: b.left + scrollX, y: b.top + scrollY };
  });
  return { cols, rows, legend, height: document.documentElement.scrollHeight, width: document.documentElement.scrollWidth };
})()`);
const known = new Set(grid.legend.map((l) => l.status));
if (grid.rows.length === 0) fail("no case rows");
if (grid.cols.length !== expected.size) fail(`${grid.cols.length} columns, ${expected.size} results files`);
for (const c of grid.cols) if (!expected.has(c)) fail(`column ${c} has no results file`);
let cells = 0;
const seenCases = new Set();
for (const r of grid.rows) {
  seenCases.add(r.id);
  if (r.cells.length !== grid.cols.length) fail(`${r.id}: ${r.cells.length} cells`);
  for (const c of r.cells) {
    cells++;
    if (!known.has(c.status)) fail(`${r.id} column ${c.col}: status ${JSON.stringify(c.status)} not in the legend`);
    const want = expected.get(grid.cols[c.col]).get(r.id) ?? "not-run";
    if (c.status !== want) fail(`${r.id} ${grid.cols[c.col]}: page says ${c.status}, results say ${want}`);
  }
}

// the screenshot: sampled cells have their status's legend colour
await send("Emulation.setDeviceMetricsOverride", { width: Math.max(1600, Math.ceil(grid.width)), height: Math.ceil(grid.height), deviceScaleFactor: 1, mobile: false }, s);
const shot = await send("Page.captureScreenshot", { format: "png", captureBeyondViewport: true }, s);
const png = decodePng(Buffer.from(shot.data, "base64"));
if (process.env.SCREENSHOT) writeFileSync(process.env.SCREENSHOT, Buffer.from(shot.data, "base64"));
const at = (x, y) => png.pixel(Math.floor(x) + 3, Math.floor(y) + 3);
const legendColour = new Map(grid.legend.map((l) => [l.status, at(l.x, l.y).join(",")]));
if (new Set(legendColour.values()).size !== legendColour.size) fail(`legend colours are not distinct: ${[...legendColour]}`);
const all = grid.rows.flatMap((r) => r.cells.map((c) => ({ ...c, id: r.id })));
const sample = all.filter((c, i) => i % 17 === 0);
for (const st of known) { const c = all.find((c) => c.status === st); if (c) sample.push(c); }
for (const c of sample) {
  const got = at(c.x, c.y).join(",");
  if (got !== legendColour.get(c.status)) fail(`${c.id} ${grid.cols[c.col]} (${c.status}): pixel ${got}, legend ${legendColour.get(c.status)}`);
}

// the status filter: only "crash" checked leaves the rows with a crash
const byStatus = (st) => grid.rows.filter((r) => r.cells.some((c) => c.status === st)).map((r) => r.id).sort();
const visibleRows = `[...document.querySelectorAll('#grid tr.case-row')].filter(r => r.offsetParent !== null).map(r => r.dataset.case).sort()`;
// the status with the fewest rows (but some): the most discriminating
const pick = [...known]
  .filter((st) => st !== "not-run" && byStatus(st).length > 0)
  .sort((a, b) => byStatus(a).length - byStatus(b).length)[0];
await js(`document.querySelectorAll('#status-filter input').forEach(i => { if (i.checked !== (i.dataset.status === ${JSON.stringify(pick)})) i.click(); })`);
const onlyPick = await js(visibleRows);
if (JSON.stringify(onlyPick) !== JSON.stringify(byStatus(pick))) fail(`filtered on ${pick}: ${onlyPick.length} rows shown, ${byStatus(pick).length} expected`);
await js(`document.querySelector('button[data-set=all]').click()`);
const allRows = await js(visibleRows);
const nonEmpty = grid.rows.filter((r) => r.cells.some((c) => c.status !== "not-run")).length;
if (allRows.length !== nonEmpty) fail(`all statuses: ${allRows.length} rows shown, ${nonEmpty} expected`);

// the implementation filter: unchecking a column hides its cells only
await js(`document.querySelector('#impl-filter input[data-col="0"]').click()`);
const hidden = await js(`(() => { const c = [...document.querySelectorAll('#grid [data-col]')];
  return { zero: c.filter(e => e.dataset.col === '0' && e.offsetParent !== null).length,
           other: c.filter(e => e.dataset.col !== '0' && e.offsetParent === null && !e.closest('tr').hidden).length }; })()`);
if (hidden.zero !== 0 || hidden.other !== 0) fail(`implementation filter: ${hidden.zero} cells of column 0 still shown, ${hidden.other} others hidden`);
await js(`document.querySelector('#impl-filter input[data-col="0"]').click()`);

// the column headings stay at the top when the page scrolls down, over the
// rows that scroll under them, and the case IDs at the left when it
// scrolls right (a viewport narrower than the grid)
async function sticky(width, dx, dy) {
  await send("Emulation.setDeviceMetricsOverride", { width, height: 700, deviceScaleFactor: 1, mobile: false }, s);
  return js(`(() => {
    const first = document.querySelector('#grid tbody tr.case-row:not([hidden]) th.id');
    // dy < 0: the first case row 400 px from the top of the viewport, below
    // the headings
    const y = ${dy} >= 0 ? ${dy} : first.getBoundingClientRect().top + scrollY - 400;
    window.scrollTo(${dx}, y);
    const head = document.querySelector('#grid thead th.col');
    const h = head.getBoundingClientRect(), i = first.getBoundingClientRect();
    const row = document.querySelector('#grid tr.case-row').getBoundingClientRect();
    const onTop = (e, b) => e.contains(document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2));
    const grid = document.getElementById('grid').getBoundingClientRect();
    return { x: scrollX, y: scrollY, headTop: h.top, headBottom: h.bottom, headOnTop: onTop(head, h),
             headBg: getComputedStyle(head).backgroundColor, rowTop: row.top,
             idLeft: i.left, idOnTop: onTop(first, i), idBg: getComputedStyle(first).backgroundColor,
             gridLeft: grid.left };
  })()`);
}
const opaque = (c) => c !== "rgba(0, 0, 0, 0)" && c !== "transparent";
const down = await sticky(1600, 0, 1200);
if (down.y < 600 || Math.abs(down.headTop) > 1 || !down.headOnTop || down.rowTop >= down.headBottom || !opaque(down.headBg))
  fail(`column headings do not stay at the top: ${JSON.stringify(down)}`);
const gridWidth = await js(`document.getElementById('grid').getBoundingClientRect().width`);
const right = await sticky(Math.floor(gridWidth / 2), Math.floor(gridWidth / 3), -1);
if (right.x < 50 || right.gridLeft >= 0 || Math.abs(right.idLeft) > 1 || !right.idOnTop || !opaque(right.idBg))
  fail(`case IDs do not stay at the left: ${JSON.stringify(right)}`);
await js(`window.scrollTo(0, 0)`);
await send("Emulation.setDeviceMetricsOverride", { width: 1600, height: 1000, deviceScaleFactor: 1, mobile: false }, s);

// a cell opens its case's panel with that implementation's answer
const probe = all.find((c) => c.status !== "not-run" && c.status !== "pass") || all.find((c) => c.status !== "not-run");
const panel = await js(`(() => {
  document.querySelector('tr[data-case="${probe.id}"] td.c[data-col="${probe.col}"] a').click();
  const sec = document.getElementById('c-${probe.id}');
  const row = document.getElementById('r-${probe.id}-${probe.col}');
  return { hash: location.hash, shown: getComputedStyle(sec).display, text: row ? row.textContent : '', hex: sec.querySelector('pre').textContent.slice(0, 9) };
})()`);
if (panel.shown !== "block" || !panel.text.includes(probe.status) || panel.hex !== "00000000:")
  fail(`clicking ${probe.id} ${grid.cols[probe.col]}: ${JSON.stringify(panel)}`);

const outside = requests.filter((u) => u !== url && !u.startsWith("data:") && u !== "about:blank");
if (outside.length) fail(`requests outside the page: ${outside.join(", ")}`);
if (problems.length) fail(`console: ${problems.join(" | ")}`);
b.finish();
console.log(
  `matrix page: ok: ${grid.rows.length} cases x ${grid.cols.length} columns (${cells} cells) match the results; ` +
    `${sample.length} sampled cell colours match the legend; filters (${pick}, column 0), sticky headings ` +
    `(scrolled to y ${down.y}, x ${right.x}) and a case panel work; ` +
    `no console errors, no requests; ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
