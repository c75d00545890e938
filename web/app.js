// The page: takes dropped or chosen files and folders, hands them to the
// worker (worker.js) and shows what it reports. No file leaves the page.
const $ = (id) => document.getElementById(id);
const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
let nextId = 1;
const waiting = new Map();
let progressOf = null;

function ask(message, transfer = []) {
  const id = nextId++;
  return new Promise((ok, ko) => {
    waiting.set(id, { ok, ko });
    worker.postMessage({ ...message, id }, transfer);
  });
}

worker.onmessage = (e) => {
  const m = e.data;
  if (m.type === "progress") {
    progressOf?.(m);
    return;
  }
  const w = waiting.get(m.id);
  if (!w) return;
  waiting.delete(m.id);
  if (m.type === "error") w.ko(new Error(m.message));
  else w.ok(m);
};

ask({ type: "version" }).then((m) => ($("version").textContent = m.version));

// --- which files of a folder are IDX files (as idx-validate's walk names them)
const IDX_NAME = /(\.idx|-idx\d+-[a-z0-9]+)(\.gz)?$/i;
const idxNamed = (name) => IDX_NAME.test(name);

async function entryFiles(entry, out) {
  if (entry.isFile) {
    const file = await new Promise((ok, ko) => entry.file(ok, ko));
    out.push({ file, name: entry.fullPath.replace(/^\//, ""), walked: true });
  } else if (entry.isDirectory) {
    const reader = entry.createReader();
    for (;;) {
      const batch = await new Promise((ok, ko) => reader.readEntries(ok, ko));
      if (batch.length === 0) break;
      for (const e of batch) if (!e.name.startsWith(".")) await entryFiles(e, out);
    }
  }
}

async function dropped(dt) {
  const out = [];
  const entries = [...dt.items].map((i) => i.webkitGetAsEntry?.()).filter(Boolean);
  if (entries.length) {
    for (const e of entries) {
      if (e.isFile) out.push({ file: await new Promise((ok, ko) => e.file(ok, ko)), name: e.name, walked: false });
      else await entryFiles(e, out);
    }
  } else {
    for (const file of dt.files) out.push({ file, name: file.name, walked: false });
  }
  return out.filter((f) => !f.walked || idxNamed(f.name));
}

// --- drawing
function el(tag, props = {}, ...children) {
  const n = document.createElement(tag);
  Object.assign(n, props);
  for (const c of children) n.append(c);
  return n;
}

function drawPicture(p) {
  const cols = Math.min(p.count, 8);
  const rows = Math.ceil(p.count / cols);
  const scale = Math.max(1, Math.min(4, Math.floor(112 / Math.max(p.width, p.height))));
  const c = el("canvas", { className: "picture", width: cols * p.width * scale, height: rows * p.height * scale });
  c.dataset.count = p.count;
  const ctx = c.getContext("2d");
  const img = ctx.createImageData(cols * p.width, rows * p.height);
  const px = new Uint8Array(p.pixels);
  for (let k = 0; k < p.count; k++) {
    const ox = (k % cols) * p.width;
    const oy = Math.floor(k / cols) * p.height;
    for (let y = 0; y < p.height; y++) {
      for (let x = 0; x < p.width; x++) {
        const g = px[k * p.width * p.height + y * p.width + x];
        const o = ((oy + y) * cols * p.width + ox + x) * 4;
        img.data[o] = img.data[o + 1] = img.data[o + 2] = g;
        img.data[o + 3] = 255;
      }
    }
  }
  const small = el("canvas", { width: img.width, height: img.height });
  small.getContext("2d").putImageData(img, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(small, 0, 0, c.width, c.height);
  return c;
}

/** A finding's box: its text as the human report has it (`text`, the
 * module's rendering; its first line in bold), and the rule's text from
 * the spec. */
function findingBox(f, text, texts) {
  const box = el("div", { className: `finding ${f.severity}` });
  box.dataset.rule = f.rule;
  const cut = text.indexOf("\n") + 1;
  box.append(el("pre", { className: "text" }, el("strong", { textContent: text.slice(0, cut) }), text.slice(cut)));
  if (texts[f.rule]) {
    box.append(el("details", {}, el("summary", { textContent: `${f.rule}: the rule in the spec` }),
      el("pre", { textContent: texts[f.rule] })));
  }
  return box;
}

function download(link, text, type) {
  if (link.href) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([text], { type }));
}

/** The run's options from the page's controls, as the npm package takes
 * them (idx-validate's flags by their JSON names). */
function runOptions() {
  const o = { denyWarnings: $("deny").checked };
  if ($("strict-byte-order").checked) o.severity = { IDX501: "error" };
  if ($("byte-order").value) o.assumeByteOrder = $("byte-order").value;
  if ($("max-decompressed").value) o.maxDecompressed = $("max-decompressed").value;
  return o;
}

function show(files, done, options) {
  const { report, texts, findingTexts, fileTexts, pictures } = done;
  // every line in the words of the human report (the module's renderer)
  $("summary").textContent = done.summary;
  download($("download-json"), done.json, "application/json");
  download($("download-sarif"), done.sarif, "application/sarif+json");
  $("human").textContent = done.human;
  const out = $("files-out");
  out.replaceChildren();
  report.files.forEach((f, i) => {
    const card = el("div", { className: "file" });
    card.dataset.path = f.path;
    card.dataset.verdict = f.verdict;
    const warnings = f.findings.filter((x) => x.severity === "warning").length;
    card.dataset.warnings = warnings;
    // the verdict line, `PATH: TAG...`, its tag marked
    const t = fileTexts[i];
    const v = t.verdict;
    card.append(el("h3", {}, el("span", { className: "path", textContent: v.path }), ": ",
      el("span", { className: `verdict ${f.verdict}`, textContent: v.tag }), v.rest));
    if (t.unreadable) card.append(el("p", { className: "unreadable", textContent: t.unreadable }));
    if (pictures[i]) {
      card.append(el("p", { className: "small", textContent: `the first ${pictures[i].count} item${pictures[i].count === 1 ? "" : "s"}:` }), drawPicture(pictures[i]));
    }
    f.findings.forEach((x, k) => card.append(findingBox(x, findingTexts[i][k], texts)));
    for (const note of t.suppressed) card.append(el("p", { className: "small suppressed", textContent: note }));
    // the safe fixes; with the byte order stated little, the byte swap of
    // a multi-byte payload is one (as idx-validate --fix --assume-byte-order
    // little swaps it whether or not IDX501 fired)
    const swaps = options.assumeByteOrder === "little" && f.header && !["u8", "i8"].includes(f.header.dtype);
    if (swaps || f.findings.some((x) => x.fix?.applicability === "safe")) {
      const button = el("button", { textContent: "repair with the safe fixes" });
      const link = el("a", { className: "repaired", hidden: true });
      button.onclick = async () => {
        button.disabled = true;
        try {
          const r = await ask({ type: "repair", file: files[i].file, name: f.path, options });
          link.href = URL.createObjectURL(r.blob);
          link.download = f.path.split("/").pop();
          link.textContent = `download the repaired file (${r.repair.applied.length} fix${r.repair.applied.length === 1 ? "" : "es"}, ${r.blob.size} bytes)`;
          link.hidden = false;
        } catch (e) {
          link.hidden = false;
          link.textContent = `not repaired: ${e.message}`;
        }
      };
      card.append(el("p", {}, button, " ", link));
    }
    out.append(card);
  });
  $("result").hidden = false;
}

async function checkFiles(files) {
  if (files.length === 0) return;
  $("progress").hidden = false;
  $("result").hidden = true;
  progressOf = (m) => {
    $("bar").value = m.total ? m.done / m.total : 1;
    $("progress-label").textContent = m.index < m.count
      ? `checking ${m.name} (${m.index + 1} of ${m.count}): ${(m.done / 2 ** 20).toFixed(1)} of ${(m.total / 2 ** 20).toFixed(1)} MiB`
      : `checked ${m.count} file${m.count === 1 ? "" : "s"}`;
  };
  const options = runOptions();
  try {
    const done = await ask({ type: "check", files: files.map(({ file, name }) => ({ file, name })), options });
    show(files, done, options);
    document.body.dataset.moduleMemory = done.moduleMemory;
    document.body.dataset.state = "done";
  } catch (e) {
    $("progress-label").textContent = `error: ${e.message}`;
    document.body.dataset.state = "error";
  }
}

const drop = $("drop");
drop.addEventListener("dragover", (e) => {
  e.preventDefault();
  drop.classList.add("over");
});
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", async (e) => {
  e.preventDefault();
  drop.classList.remove("over");
  checkFiles(await dropped(e.dataTransfer));
});
$("files").addEventListener("change", (e) => checkFiles([...e.target.files].map((file) => ({ file, name: file.name }))));
$("folder").addEventListener("change", (e) =>
  checkFiles([...e.target.files]
    .map((file) => ({ file, name: file.webkitRelativePath || file.name }))
    .filter((f) => idxNamed(f.name))));
document.body.dataset.state = "ready";
