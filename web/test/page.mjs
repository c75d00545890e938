// The web page in a real headless browser (Debian's chromium), driven over
// the DevTools protocol on a pipe by the harness of the matrix page's test
// (crates/idx-conformance/tests/browser/cdp.mjs), with no npm packages.
// The page is served from 127.0.0.1 by this script.
//
//   node web/test/page.mjs SITE_DIR NATIVE_IDX_VALIDATE MNIST_DIR [SPARSE_BYTES]
//
// 1. Drops MNIST's t10k images and labels (.gz: an image/label pair), an
//    invalid corpus file, one with a safe fix and one with warnings past
//    the cap of 10 per rule on the page (a real drop:
//    Input.dispatchDragEvent with files). Checks the downloaded JSON report
//    equals `idx-validate --format json` on the same files under the same
//    names, byte for byte, and the SARIF its SARIF but for the tool's name;
//    the findings shown, each one's text that of `idx-validate --format
//    human` for it, character for character, and so each file's verdict
//    line (the cards' headings), its notes of findings not shown and the
//    summary line; the picture's pixels (MNIST's first 16 digits);
//    the repaired file equals `idx-validate --fix --output`. Then a file
//    whose only findings are warnings (the byte-order test's IDX501, a
//    little-endian f32 picture) through the file input, under the page's
//    controls: valid with the warning listed (its text the human
//    report's, and its verdict line) and its picture drawn; with
//    "byte-order warnings fail", invalid and no picture; with the byte
//    order stated little or big, idx-validate --assume-byte-order's
//    report (little: the picture read little-endian, the repair's byte
//    swap equal to idx-validate --fix's). Then a gzip bomb (64 MiB of
//    zeros in 64 KiB) under the page's 1 MiB gzip limit: invalid, IDX702,
//    idx-validate --max-decompressed 1MiB's report and verdict line. Then
//    a file the browser cannot read (named to the file input, not there)
//    before an invalid one: unreadable, and the run goes on; the JSON
//    report and the lines are idx-validate's but for the reason (the
//    browser's, which names the cause).
// 2. Validates a sparse file of SPARSE_BYTES (default 2 GiB) through the
//    file input and reports the page's peak memory (the resident memory of
//    all of chromium's processes, sampled every 50 ms, less that before).
// Throughout: no console error or warning, no exception, and no request
// after the page has loaded (blob: URLs of the downloads are the page's
// own memory, not requests). Exit 1 on the first failed check.
import { spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { readFileSync, writeFileSync, mkdtempSync, rmSync, symlinkSync, readdirSync, openSync, closeSync, ftruncateSync, writeSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, extname, basename } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { launch } from "../../crates/idx-conformance/tests/browser/cdp.mjs";

const started = Date.now();
const [site, nativeArg, mnistDir, sparseArg] = process.argv.slice(2);
const nativeBin = nativeArg && resolve(nativeArg);
if (!site || !nativeArg || !mnistDir) {
  console.error("usage: node page.mjs SITE_DIR NATIVE_IDX_VALIDATE MNIST_DIR [SPARSE_BYTES]");
  process.exit(2);
}
const sparseBytes = Number(sparseArg ?? 2 ** 31);
const root = resolve(import.meta.dirname, "../..");
const scratch = mkdtempSync(join(tmpdir(), "idx-web-page-"));
let server;
let b;

function cleanup() {
  try { server?.close(); } catch {}
  try { rmSync(scratch, { recursive: true, force: true }); } catch {}
}
function fail(msg) {
  if (b) b.fail(msg); // once the browser runs: its FAIL line, onFail below, exit 1
  console.error(`web page: FAIL: ${msg}`);
  cleanup();
  process.exit(1);
}
function check(ok, msg) {
  if (!ok) fail(msg);
}

// --- the inputs, under the names the page will show
const invalid = "corpus/invalid/invalid-unknown-type-07.idx";
const fixable = readdirSync(join(root, "corpus/invalid"))
  .filter((n) => !n.endsWith(".json"))
  .map((n) => `corpus/invalid/${n}`)
  .find((p) => {
    const r = spawnSync(nativeBin, ["--isolated", "--format", "json", p], { cwd: root, encoding: "utf8" });
    return JSON.parse(r.stdout).files[0].findings.some((f) => f.fix?.applicability === "safe");
  });
check(fixable, "no corpus file with a safe fix");
const drops = [
  join(resolve(mnistDir), "t10k-images-idx3-ubyte.gz"),
  join(resolve(mnistDir), "t10k-labels-idx1-ubyte.gz"),
  join(root, invalid),
  join(root, fixable),
];
// warnings past the page's cap of 10 per rule: rank 12, every dimension
// zero (12 IDX302), so idx-validate's human report says 2 are not shown
const capped = join(scratch, "zeros.idx");
writeFileSync(capped, Buffer.from([0, 0, 8, 12, ...new Array(48).fill(0)]));
drops.push(capped);
for (const p of drops) check(existsSync(p), `missing input ${p}`);
const names = drops.map((p) => basename(p));
const named = join(scratch, "named");
spawnSync("mkdir", ["-p", named]);
drops.forEach((p, i) => symlinkSync(p, join(named, names[i])));
const native = (args) => spawnSync(nativeBin, ["--isolated", ...args], { cwd: named, encoding: "utf8", maxBuffer: 1 << 26 });
const nativeJson = native(["--format", "json", ...names]).stdout;
const nativeHuman = native(["--format", "human", "--color", "never", ...names]).stdout;
// each finding of idx-validate's human report, as it prints it: from its
// `error[IDX...]:` line to the blank line after it
function humanFindings(text) {
  const out = [];
  let block = null;
  for (const line of text.split("\n")) {
    if (block === null && /^(error|warning|info)\[IDX\d+\]: /.test(line)) block = "";
    if (block === null) continue;
    if (line === "") {
      out.push(block);
      block = null;
    } else block += line + "\n";
  }
  return out;
}
// the other lines of idx-validate's human report, in order: each file's
// (why it is unreadable, its notes of findings not shown, its verdict
// line), then the run's summary line
function humanOtherLines(text) {
  const out = [];
  let inFinding = false;
  for (const line of text.split("\n")) {
    if (!inFinding && /^(error|warning|info)\[IDX\d+\]: /.test(line)) inFinding = true;
    if (inFinding) {
      if (line === "") inFinding = false;
    } else if (line !== "") out.push(line);
  }
  return out;
}
// (in the page) the same lines as the page shows them: each card's, in
// the human report's order, then the summary
const otherLinesIn = (cards) => `[...${cards}].flatMap((c) => [
    ...[...c.querySelectorAll("p.unreadable")].map((p) => p.textContent),
    ...[...c.querySelectorAll("p.suppressed")].map((p) => p.textContent),
    c.querySelector("h3").textContent,
  ]).concat([document.getElementById("summary").textContent])`;
// (in the page) each finding's text in the card `c`: its box but the
// rule's text from the spec
const findingTextsIn = (c) => `[...${c}.querySelectorAll(".finding")].map((f) => [...f.childNodes].filter((n) => n.nodeName !== "DETAILS").map((n) => n.textContent).join(""))`;
const nativeSarif = native(["--format", "sarif", ...names]).stdout;
spawnSync(nativeBin, ["--isolated", "--fix", "--output", join(scratch, "fixed"), join(named, basename(fixable))]);
const nativeFixed = readFileSync(join(scratch, "fixed"));

// --- the site, served from 127.0.0.1
const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm", ".png": "image/png" };
server = createServer((req, res) => {
  const path = new URL(req.url, "http://x").pathname.replace(/\/$/, "/index.html");
  const file = join(resolve(site), path);
  if (!file.startsWith(resolve(site)) || !existsSync(file)) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
  res.end(readFileSync(file));
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const url = `http://127.0.0.1:${server.address().port}/`;

// --- chromium over a pipe, the page and its worker
b = launch("web page", {
  timeoutMs: 300000,
  onFail() {
    if (b.problems.length) console.error(`console and exceptions so far:\n${b.problems.join("\n")}`);
    console.error(`requests: ${b.requests.join(" ")}`);
    cleanup();
  },
});
const { send, problems } = b;
// blob: and data: URLs (the downloads) are the page's own memory, not requests
const requests = () => b.requests.filter((u) => !u.startsWith("blob:") && !u.startsWith("data:"));
const s = await b.open(url, { width: 1100, height: 1400, workers: true });
const evaluate = (expression) => b.js(s, expression);
const until = (expression, what, ms) => b.until(s, expression, what, ms);

// loaded: the worker answered with the library's version (the module is in)
await until(`document.body?.dataset.state === "ready" && document.getElementById("version").textContent !== ""`, "the page and its worker");
const requestsBeforeLoad = requests().length;
check(requests().some((u) => u.endsWith("idx_wasm_bg.wasm")), `the module was not seen loading: ${JSON.stringify(requests())}`);
check(await evaluate(`document.body.innerText.includes("makes no network request")`), "the page does not say it makes no network request");

// --- 1. a real drop of four files
const box = await evaluate(`(() => { const r = document.getElementById("drop").getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`);
const data = { items: [], files: drops, dragOperationsMask: 1 };
for (const type of ["dragEnter", "dragOver", "drop"]) {
  await send("Input.dispatchDragEvent", { type, x: box[0], y: box[1], data }, s);
}
await until(`document.body.dataset.state === "done"`, "the dropped files' report");

const page = await evaluate(`(async () => {
  const text = async (id) => (await fetch(document.getElementById(id).href)).text();
  const cards = [...document.querySelectorAll(".file")].map((c) => ({
    path: c.dataset.path, verdict: c.dataset.verdict,
    rules: [...c.querySelectorAll(".finding")].map((f) => f.dataset.rule),
    specText: [...c.querySelectorAll(".finding details pre")].map((p) => p.textContent),
    texts: ${findingTextsIn("c")},
  }));
  const canvas = document.querySelector(".file canvas.picture");
  let picture = null;
  if (canvas) {
    const d = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
    picture = { width: canvas.width, height: canvas.height, count: Number(canvas.dataset.count), data: Array.from(d.data) };
  }
  return { json: await text("download-json"), sarif: await text("download-sarif"), cards, picture,
           lines: ${otherLinesIn('document.querySelectorAll(".file")')},
           human: document.getElementById("human").textContent, summary: document.getElementById("summary").textContent };
})()`);

check(page.json === nativeJson, `the JSON report differs from idx-validate's:\n${page.json.slice(0, 600)}\n---\n${nativeJson.slice(0, 600)}`);
const unnamed = (t) => {
  const d = JSON.parse(t);
  for (const r of d.runs) for (const k of ["name", "version", "semanticVersion", "informationUri"]) delete r.tool.driver[k];
  return JSON.stringify(d);
};
check(unnamed(page.sarif) === unnamed(nativeSarif), "the SARIF report differs from idx-validate's");
const report = JSON.parse(nativeJson);
check(page.cards.length === names.length, `${page.cards.length} files shown, ${names.length} dropped`);
report.files.forEach((f, i) => {
  const c = page.cards[i];
  check(c.path === f.path && c.verdict === f.verdict, `file ${i}: shown ${c.path} ${c.verdict}, reported ${f.path} ${f.verdict}`);
  check(JSON.stringify(c.rules) === JSON.stringify(f.findings.map((x) => x.rule)), `${f.path}: findings shown ${c.rules}, reported ${f.findings.map((x) => x.rule)}`);
});
// each finding's text is idx-validate's human text of it, character for character
{
  const shown = page.cards.flatMap((c) => c.texts);
  const printed = humanFindings(nativeHuman);
  check(printed.length > 0 && printed.some((t) => t.includes("^")), `idx-validate's human report has no finding with an excerpt:\n${nativeHuman.slice(0, 600)}`);
  check(JSON.stringify(shown) === JSON.stringify(printed),
    `the findings' text differs from idx-validate's human report:\n${shown.join("\n")}\n---\n${printed.join("\n")}`);
}
// each file's verdict line, notes and the summary line are idx-validate's
{
  const printed = humanOtherLines(nativeHuman);
  check(printed.some((l) => l.includes("(gzip; offsets are in the decompressed stream)")) &&
    printed.some((l) => /^note: 2 more IDX302 findings in zeros\.idx not shown/.test(l)) &&
    printed.some((l) => l.includes(": INVALID: ")) && /^5 files checked: /.test(printed.at(-1)),
    `idx-validate's human report lacks a gzip note, a note of findings not shown, an invalid file or its summary:\n${printed.join("\n")}`);
  check(JSON.stringify(page.lines) === JSON.stringify(printed),
    `the verdict lines, notes and summary differ from idx-validate's human report:\n${page.lines.join("\n")}\n---\n${printed.join("\n")}`);
}
check(report.files[0].verdict === "valid" && report.files[1].verdict === "valid", "MNIST's t10k pair is not valid");
check(report.files[2].verdict === "invalid", `${invalid} is not invalid`);
const withText = page.cards[2];
check(withText.specText.length > 0 && withText.specText[0].startsWith(`### ${withText.rules[0]} `), "the rule's text from the spec is not shown");
check(page.human.includes("error[") && page.human.includes("^"), "the human report has no excerpt with carets");
// the picture: MNIST's first 16 test digits, each pixel as it is in the file
check(page.picture && page.picture.count === 16, `no picture of 16 items: ${page.picture && page.picture.count}`);
const images = gunzipSync(readFileSync(drops[0]));
const scale = page.picture.width / (8 * 28);
for (let k = 0; k < 16; k++) {
  for (let y = 0; y < 28; y++) {
    for (let x = 0; x < 28; x++) {
      const want = images[16 + k * 784 + y * 28 + x];
      const px = ((k % 8) * 28 + x) * scale + Math.floor(scale / 2);
      const py = (Math.floor(k / 8) * 28 + y) * scale + Math.floor(scale / 2);
      const got = page.picture.data[(py * page.picture.width + px) * 4];
      check(got === want, `picture: item ${k} pixel (${x}, ${y}) is ${got}, the file has ${want}`);
    }
  }
}
// the repaired file
await evaluate(`document.querySelectorAll(".file")[3].querySelector("button").click()`);
await until(`!document.querySelectorAll(".file")[3].querySelector("a.repaired").hidden`, "the repaired file");
const fixed = await evaluate(`(async () => Array.from(new Uint8Array(await (await fetch(document.querySelectorAll(".file")[3].querySelector("a.repaired").href)).arrayBuffer())))()`);
check(Buffer.from(fixed).equals(nativeFixed), `the repaired ${fixable} differs from idx-validate --fix's (${fixed.length} vs ${nativeFixed.length} bytes)`);
const shot = await send("Page.captureScreenshot", { format: "png" }, s);
if (process.env.SCREENSHOT) writeFileSync(process.env.SCREENSHOT, Buffer.from(shot.data, "base64"));

// --- 1b. a file with no error, only the byte-order test's warning (IDX501;
// and a note, IDX502, on what reading it big-endian gives): valid, its picture drawn,
// the warning listed; the page's controls as idx-validate's flags: IDX501
// made an error (invalid, no picture), the byte order stated little (the
// picture read little-endian, the repair byte-swaps it) or big
const le = "corpus/implementation-defined/impl-little-endian-f32-one-picture.idx";
const leName = basename(le);
symlinkSync(join(root, le), join(named, leName));
const { root: doc0 } = await send("DOM.getDocument", {}, s);
const { nodeId: filesInput } = await send("DOM.querySelector", { nodeId: doc0.nodeId, selector: "#files" }, s);
async function checkWith(strict, order) {
  await evaluate(`(() => {
    document.getElementById("deny").checked = false;
    document.getElementById("strict-byte-order").checked = ${strict};
    document.getElementById("byte-order").value = ${JSON.stringify(order)};
    document.getElementById("files").value = "";
    document.body.dataset.state = "ready";
  })()`);
  await send("DOM.setFileInputFiles", { nodeId: filesInput, files: [join(root, le)] }, s);
  await until(`document.body.dataset.state === "done"`, `the report of ${leName} (strict ${strict}, order ${order || "auto"})`);
  return evaluate(`(async () => {
    const c = document.querySelector(".file");
    const canvas = c.querySelector("canvas.picture");
    let picture = null;
    if (canvas) {
      const d = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
      picture = { width: canvas.width, height: canvas.height, count: Number(canvas.dataset.count), data: Array.from(d.data) };
    }
    return {
      json: await (await fetch(document.getElementById("download-json").href)).text(),
      path: c.dataset.path, verdict: c.dataset.verdict,
      findings: [...c.querySelectorAll(".finding")].map((f) => ({ rule: f.dataset.rule, severity: f.className.replace("finding ", ""), text: f.textContent })),
      texts: ${findingTextsIn("c")},
      lines: ${otherLinesIn("[c]")},
      repairable: !!c.querySelector("button"),
      picture,
    };
  })()`);
}
const leBytes = readFileSync(join(root, le));
for (const [strict, order, flags] of [
  [false, "", []],
  [true, "", ["--severity", "IDX501=error"]],
  [false, "little", ["--assume-byte-order", "little"]],
  [true, "little", ["--severity", "IDX501=error", "--assume-byte-order", "little"]],
  [false, "big", ["--assume-byte-order", "big"]],
]) {
  const what = `${leName} with ${flags.join(" ") || "the defaults"}`;
  const got = await checkWith(strict, order);
  const want = native(["--format", "json", ...flags, leName]);
  check(got.json === want.stdout, `${what}: the JSON report differs from idx-validate's:\n${got.json.slice(0, 600)}\n---\n${want.stdout.slice(0, 600)}`);
  const f = JSON.parse(want.stdout).files[0];
  check(got.path === f.path && got.verdict === f.verdict, `${what}: shown ${got.verdict}, reported ${f.verdict}`);
  check(JSON.stringify(got.findings.map((x) => [x.rule, x.severity])) === JSON.stringify(f.findings.map((x) => [x.rule, x.severity])),
    `${what}: findings shown ${JSON.stringify(got.findings.map((x) => [x.rule, x.severity]))}`);
  const human = native(["--format", "human", "--color", "never", ...flags, leName]).stdout;
  const printed = humanFindings(human);
  check(JSON.stringify(got.texts) === JSON.stringify(printed),
    `${what}: the findings' text differs from idx-validate's human report:\n${got.texts.join("\n")}\n---\n${printed.join("\n")}`);
  check(JSON.stringify(got.lines) === JSON.stringify(humanOtherLines(human)),
    `${what}: the verdict line and summary differ from idx-validate's human report:\n${got.lines.join("\n")}\n---\n${humanOtherLines(human).join("\n")}`);
  // a picture of a file called valid (warnings or not), never of one called invalid
  check(!!got.picture === (f.verdict === "valid"), `${what}: ${f.verdict}, ${got.picture ? "a picture drawn" : "no picture"}`);
  if (!order) {
    const w = got.findings.find((x) => x.rule === "IDX501");
    check(w && w.severity === (strict ? "error" : "warning"), `${what}: no IDX501 ${strict ? "error" : "warning"} shown`);
    check(/score .* bits/.test(w.text) && w.text.includes("a statistical test, not a proof"), `${what}: the IDX501 message shown lacks its score: ${w.text.slice(0, 300)}`);
    check(f.verdict === (strict ? "invalid" : "valid"), `${what}: ${f.verdict}`);
  }
  if (order === "little" && !strict) {
    check(f.verdict === "valid" && !f.findings.some((x) => x.rule === "IDX501"), `${what}: ${f.verdict}, ${f.findings.map((x) => x.rule)}`);
    // the picture read little-endian: each f32 scaled from the least to the greatest
    const v = [];
    for (let k = 0; k < 28 * 28; k++) v.push(leBytes.readFloatLE(12 + 4 * k));
    const finite = v.filter(Number.isFinite);
    const lo = Math.min(...finite);
    const hi = Math.max(...finite);
    const sc = got.picture.width / 28;
    for (let y = 0; y < 28; y++) {
      for (let x = 0; x < 28; x++) {
        const want = Number.isFinite(v[y * 28 + x]) ? Math.round((v[y * 28 + x] - lo) / (hi > lo ? hi - lo : 1) * 255) : 0;
        const px = x * sc + Math.floor(sc / 2);
        const py = y * sc + Math.floor(sc / 2);
        const g = got.picture.data[(py * got.picture.width + px) * 4];
        check(g === want, `${what}: picture pixel (${x}, ${y}) is ${g}, the file read little-endian gives ${want}`);
      }
    }
    // the repair byte-swaps it, as idx-validate --fix --assume-byte-order little
    check(got.repairable, `${what}: no repair offered`);
    spawnSync(nativeBin, ["--isolated", "--fix", "--assume-byte-order", "little", "--output", join(scratch, "swapped"), join(named, leName)]);
    const nativeSwapped = readFileSync(join(scratch, "swapped"));
    check(!nativeSwapped.equals(leBytes), "idx-validate --fix --assume-byte-order little changed nothing");
    await evaluate(`document.querySelector(".file button").click()`);
    await until(`!document.querySelector(".file a.repaired").hidden`, "the byte-swapped file");
    const swapped = await evaluate(`(async () => Array.from(new Uint8Array(await (await fetch(document.querySelector(".file a.repaired").href)).arrayBuffer())))()`);
    check(Buffer.from(swapped).equals(nativeSwapped), `${what}: the repaired file differs from idx-validate --fix's (${swapped.length} vs ${nativeSwapped.length} bytes)`);
  }
}
await evaluate(`(() => {
  document.getElementById("strict-byte-order").checked = false;
  document.getElementById("byte-order").value = "";
  document.getElementById("files").value = "";
})()`);

// --- 1c. a gzip bomb (64 MiB of zeros under a u8 header, 64 KiB
// compressed) with the page's limit at 1 MiB: the check stops at the limit
// with IDX702, as idx-validate --max-decompressed 1MiB reports it
const bombName = "bomb-idx1-ubyte.gz";
{
  const n = 64 << 20;
  const raw = Buffer.alloc(8 + n);
  raw.set([0, 0, 8, 1, (n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
  writeFileSync(join(named, bombName), gzipSync(raw, { level: 9 }));
}
{
  await evaluate(`(() => {
    document.getElementById("max-decompressed").value = "1MiB";
    document.getElementById("files").value = "";
    document.body.dataset.state = "ready";
  })()`);
  await send("DOM.setFileInputFiles", { nodeId: filesInput, files: [join(named, bombName)] }, s);
  await until(`document.body.dataset.state === "done"`, `the report of ${bombName}`);
  const got = await evaluate(`(async () => {
    const c = document.querySelector(".file");
    return {
      json: await (await fetch(document.getElementById("download-json").href)).text(),
      verdict: c.dataset.verdict,
      rules: [...c.querySelectorAll(".finding")].map((f) => f.dataset.rule),
      lines: ${otherLinesIn("[c]")},
    };
  })()`);
  const want = native(["--format", "json", "--max-decompressed", "1MiB", bombName]);
  check(got.json === want.stdout, `${bombName} at a 1 MiB limit: the JSON report differs from idx-validate's:\n${got.json.slice(0, 600)}\n---\n${want.stdout.slice(0, 600)}`);
  check(got.verdict === "invalid" && got.rules.includes("IDX702"), `${bombName} at a 1 MiB limit: ${got.verdict}, ${got.rules}`);
  const lines = humanOtherLines(native(["--format", "human", "--color", "never", "--max-decompressed", "1MiB", bombName]).stdout);
  check(JSON.stringify(got.lines) === JSON.stringify(lines),
    `${bombName} at a 1 MiB limit: the verdict line and summary differ from idx-validate's human report:\n${got.lines.join("\n")}\n---\n${lines.join("\n")}`);
  await evaluate(`(() => {
    document.getElementById("max-decompressed").value = "";
    document.getElementById("files").value = "";
  })()`);
}

// --- 1d. a file the browser cannot read (named to the file input, not
// there): unreadable, and the run goes on to the next file; its lines are
// idx-validate's for a file it cannot read, but for the reason (the
// browser's words, not the system's)
const goneName = "gone.idx";
{
  await evaluate(`(() => {
    document.getElementById("files").value = "";
    document.body.dataset.state = "ready";
  })()`);
  await send("DOM.setFileInputFiles", { nodeId: filesInput, files: [join(named, goneName), join(named, basename(invalid))] }, s);
  await until(`["done", "error"].includes(document.body.dataset.state)`, `the report of ${goneName} and ${basename(invalid)}`);
  const state = await evaluate(`[document.body.dataset.state, document.getElementById("progress-label").textContent]`);
  check(state[0] === "done", `${goneName} and ${basename(invalid)}: no report, the run stopped: ${state[1]}`);
  const got = await evaluate(`(async () => ({
    json: await (await fetch(document.getElementById("download-json").href)).text(),
    verdicts: [...document.querySelectorAll(".file")].map((c) => c.dataset.verdict),
    lines: ${otherLinesIn('document.querySelectorAll(".file")')},
  }))()`);
  const args = [goneName, basename(invalid)];
  const human = native(["--format", "human", "--color", "never", ...args]).stdout;
  const want = JSON.parse(native(["--format", "json", ...args]).stdout);
  const page = JSON.parse(got.json);
  const because = `error: cannot read ${goneName}: `;
  // the browser's reason names the cause (its stream's error says only
  // "network error")
  check(/could not be found/.test(page.files[0]?.error), `${goneName}: the reason in the page's report does not say the file is not found: ${got.json.slice(0, 400)}`);
  // the reason aside, the JSON report and the lines are idx-validate's
  page.files[0].error = want.files[0].error;
  check(JSON.stringify(page) === JSON.stringify(want), `${goneName}: the JSON report differs from idx-validate's but for the reason:\n${got.json.slice(0, 600)}`);
  const printed = humanOtherLines(human);
  const reason = (ls) => ls.map((l) => (l.startsWith(because) ? because + "REASON" : l));
  check(printed[0].startsWith(because) && got.lines[0]?.startsWith(because) && got.lines[0].length > because.length,
    `${goneName}: no unreadable line:\n${got.lines.join("\n")}\n---\n${printed.join("\n")}`);
  check(JSON.stringify(reason(got.lines)) === JSON.stringify(reason(printed)),
    `${goneName}: the lines differ from idx-validate's human report but for the reason:\n${got.lines.join("\n")}\n---\n${printed.join("\n")}`);
  check(JSON.stringify(got.verdicts) === JSON.stringify(["unreadable", "invalid"]), `${goneName}: ${got.verdicts}`);
  await evaluate(`document.getElementById("files").value = ""`);
}

// --- 2. a large sparse file, and the page's peak memory
const big = join(scratch, "large-f32.idx");
{
  const n = Math.floor((sparseBytes - 8) / 4);
  const fd = openSync(big, "w");
  writeSync(fd, Buffer.from([0, 0, 0x0d, 1, (n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]));
  ftruncateSync(fd, 8 + 4 * n);
  closeSync(fd);
}
function chromiumRss() {
  // every process under the browser's: pid -> ppid from /proc
  const kids = new Map();
  for (const p of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const st = readFileSync(`/proc/${p}/stat`, "utf8");
      const ppid = Number(st.slice(st.lastIndexOf(")") + 2).split(" ")[1]);
      if (!kids.has(ppid)) kids.set(ppid, []);
      kids.get(ppid).push(Number(p));
    } catch {}
  }
  // resident anonymous memory (what the processes allocated; file pages
  // they map are the kernel's page cache) and all resident memory, per
  // process type (browser, renderer, gpu-process, utility, ...)
  const sum = { anon: 0, total: 0, by: {} };
  const stack = [b.pid];
  while (stack.length) {
    const p = stack.pop();
    try {
      const st = readFileSync(`/proc/${p}/status`, "utf8");
      const anon = Number(/RssAnon:\s+(\d+) kB/.exec(st)?.[1] ?? 0) * 1024;
      const rss = Number(/VmRSS:\s+(\d+) kB/.exec(st)?.[1] ?? 0) * 1024;
      const type = /--type=([a-z-]+)/.exec(readFileSync(`/proc/${p}/cmdline`, "utf8"))?.[1] ?? "browser";
      sum.anon += anon;
      sum.total += rss;
      sum.by[type] = (sum.by[type] ?? 0) + anon;
    } catch {}
    stack.push(...(kids.get(p) ?? []));
  }
  return sum;
}
await evaluate(`document.body.dataset.state = "ready"`);
const before = chromiumRss();
const peak = { anon: before.anon, total: before.total, by: { ...before.by } };
const sampler = setInterval(() => {
  const now = chromiumRss();
  peak.anon = Math.max(peak.anon, now.anon);
  peak.total = Math.max(peak.total, now.total);
  for (const [k, v] of Object.entries(now.by)) peak.by[k] = Math.max(peak.by[k] ?? 0, v);
}, 50);
const { root: doc } = await send("DOM.getDocument", {}, s);
const { nodeId } = await send("DOM.querySelector", { nodeId: doc.nodeId, selector: "#files" }, s);
const t0 = Date.now();
await send("DOM.setFileInputFiles", { nodeId, files: [big] }, s);
await until(`document.body.dataset.state === "done"`, "the large file's report", 200000);
const seconds = (Date.now() - t0) / 1000;
clearInterval(sampler);
const bigReport = JSON.parse(await evaluate(`(async () => (await fetch(document.getElementById("download-json").href)).text())()`));
const bigNative = JSON.parse(spawnSync(nativeBin, ["--isolated", "--format", "json", big], { encoding: "utf8" }).stdout);
bigNative.files[0].path = basename(big);
check(JSON.stringify(bigReport.files[0]) === JSON.stringify(bigNative.files[0]), `the large file's report differs: ${JSON.stringify(bigReport.files[0]).slice(0, 300)}`);
const mib = (n) => (n / 2 ** 20).toFixed(0);
const moduleMemory = Number(await evaluate(`document.body.dataset.moduleMemory`));
const growth = Object.entries(peak.by).map(([k, v]) => `${k} +${mib(v - (before.by[k] ?? 0))}`).join(", ");
console.log(`web page: a ${mib(sparseBytes)} MiB file checked in ${seconds.toFixed(1)} s (${mib(sparseBytes / seconds)} MiB/s); ` +
  `chromium's resident anonymous memory: ${mib(before.anon)} MiB before, peak ${mib(peak.anon)} MiB (+${mib(peak.anon - before.anon)} MiB: ${growth}); ` +
  `all resident memory (with mapped file pages): ${mib(before.total)} MiB before, peak ${mib(peak.total)} MiB; ` +
  `the module's memory: ${mib(moduleMemory)} MiB`);
check(peak.anon - before.anon < 128 * 2 ** 20, `the page's memory grew by ${mib(peak.anon - before.anon)} MiB on a ${mib(sparseBytes)} MiB file`);

// --- throughout
check(problems.length === 0, `console or exceptions:\n${problems.join("\n")}`);
const late = requests().slice(requestsBeforeLoad);
check(late.length === 0, `requests after the page loaded: ${late.join(", ")}`);
check(requests().every((u) => u.startsWith(url)), `requests outside the page: ${requests().join(", ")}`);
b.finish();
cleanup();
console.log(`web page: OK (${names.length} dropped files as idx-validate reports them, their findings, verdict lines, notes and summary in its human words, picture, downloads, repair; ${leName} under the byte-order controls as idx-validate --severity/--assume-byte-order; ${goneName} unreadable as idx-validate records it; no console error, no request after load) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
