// The page's worker: every file is read here, in pieces, by the library
// (FileReaderSync over File.slice: a synchronous read at the offset the
// library asks for, so memory stays bounded whatever the file's size), and
// checked, repaired or drawn by the WebAssembly module. It makes no network
// request but the module's own, when the page loads.
import init, { Checker, explain, picture, repair, version } from "./idx_wasm.js";

const ready = init({ module_or_path: new URL("./idx_wasm_bg.wasm", import.meta.url) });

/** readAt(offset, length) over a File; `seen(end)` after each read. */
function readerOf(file, seen) {
  const fr = new FileReaderSync();
  return (offset, length) => {
    const buf = fr.readAsArrayBuffer(file.slice(offset, offset + length));
    if (seen) seen(offset + buf.byteLength);
    return new Uint8Array(buf);
  };
}

function check({ id, files, options }) {
  const total = files.reduce((n, f) => n + f.file.size, 0);
  let before = 0;
  let last = 0;
  const checker = new Checker(JSON.stringify(options));
  try {
    for (const [i, { file, name }] of files.entries()) {
      postMessage({ type: "progress", id, name, index: i, count: files.length, done: before, total });
      checker.checkSource(name, file.size, readerOf(file, (end) => {
        const now = performance.now();
        if (now - last > 50) {
          last = now;
          postMessage({ type: "progress", id, name, index: i, count: files.length, done: before + end, total });
        }
      }));
      before += file.size;
    }
    postMessage({ type: "progress", id, name: "", index: files.length, count: files.length, done: total, total });
    const json = checker.render("json");
    const report = JSON.parse(json);
    const rules = new Set(report.files.flatMap((f) => f.findings.map((x) => x.rule)));
    const texts = Object.fromEntries([...rules].map((r) => [r, explain(r)]));
    const pictures = [];
    const transfer = [];
    for (const [i, { file }] of files.entries()) {
      const f = report.files[i];
      let p;
      if (f.header && f.header.shape.length >= 2 && f.header.shape.length <= 3) {
        try {
          p = picture(file.size, readerOf(file), 16);
        } catch {
          p = undefined; // no picture of a stream that cannot be decoded
        }
      }
      pictures.push(p ?? null);
      if (p) transfer.push(p.pixels.buffer);
    }
    postMessage({
      type: "done", id, json, report, texts, pictures,
      human: checker.render("human"),
      sarif: checker.render("sarif"),
      exitStatus: checker.exitStatus(),
    }, transfer);
  } finally {
    checker.free();
  }
}

function fix({ id, file, name }) {
  const parts = [];
  const json = repair(name, file.size, readerOf(file), (chunk) => parts.push(chunk));
  postMessage({ type: "repaired", id, name, repair: JSON.parse(json), blob: new Blob(parts) });
}

self.onmessage = async (e) => {
  const m = e.data;
  try {
    await ready;
    if (m.type === "check") check(m);
    else if (m.type === "repair") fix(m);
    else if (m.type === "version") postMessage({ type: "version", id: m.id, version: version() });
  } catch (err) {
    postMessage({ type: "error", id: m.id, message: String(err?.message ?? err) });
  }
};
