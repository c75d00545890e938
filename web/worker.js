// The page's worker: every file is read here, in pieces, by the library
// (FileReaderSync over File.slice: a synchronous read at the offset the
// library asks for, so memory stays bounded whatever the file's size), and
// checked, repaired or drawn by the WebAssembly module. It makes no network
// request but the module's own, when the page loads.
import init, { Checker, explain, picture, repair, version } from "./idx_wasm.js";

const ready = init({ module_or_path: new URL("./idx_wasm_bg.wasm", import.meta.url) });

/** Bytes read from a File per FileReaderSync call (each call is a round
 * trip to the browser's blob store, so reads are few and large). */
const BLOCK = 4 << 20;

/**
 * readAt(offset, target) over a File: the bytes at `offset` copied into
 * `target` (a view of the library's buffer), through one block of at most
 * BLOCK bytes read ahead; `seen(end)` after each read.
 */
function readerOf(file, seen) {
  const fr = new FileReaderSync();
  let block = new Uint8Array(0);
  let blockAt = 0;
  return (offset, target) => {
    let done = 0;
    while (done < target.length) {
      const at = offset + done;
      if (at < blockAt || at >= blockAt + block.length) {
        if (at >= file.size) break;
        const end = Math.min(file.size, at + Math.max(BLOCK, target.length - done));
        block = new Uint8Array(fr.readAsArrayBuffer(file.slice(at, end)));
        blockAt = at;
        if (block.length === 0) break;
      }
      const from = at - blockAt;
      const n = Math.min(target.length - done, block.length - from);
      target.set(block.subarray(from, from + n), done);
      done += n;
    }
    if (seen) seen(offset + done);
    return done;
  };
}

/**
 * Checks one file into `checker`. A plain file streams through the
 * library: File.stream()'s chunks are pushed into its validator as they
 * arrive, and between chunks the worker yields, so the chunks it is done
 * with are collected (memory stays bounded however large the file); the
 * rows of excerpts the report did not keep are read afterwards. A gzip file
 * is pushed the same way: the library's validator recognises it and
 * decompresses it as the chunks come, within the limit.
 */
async function checkOne(checker, file, name, progress) {
  checker.begin(name);
  // a byte stream read into one buffer, handed back and forth (no chunk
  // allocated per read), where the browser's Blob streams are byte streams
  let reader;
  let buffer = null;
  try {
    reader = file.stream().getReader({ mode: "byob" });
    buffer = new ArrayBuffer(1 << 20);
  } catch {
    reader = file.stream().getReader();
  }
  let at = 0;
  for (;;) {
    // only the browser's read is the file's failure: an error of the
    // module or of the progress report stays the run's
    let chunk;
    try {
      chunk = buffer ? await reader.read(new Uint8Array(buffer)) : await reader.read();
    } catch (e) {
      // a file the browser cannot read (gone, or changed since it was
      // chosen): unreadable, with the browser's reason, as idx-validate
      // records a file it cannot read; the run goes on. The stream's error
      // says only "network error"; a FileReader's read of the file's first
      // byte names the cause (not found, not readable)
      const why = await new Promise((ok) => {
        const r = new FileReader();
        r.onload = () => ok(e.message);
        r.onerror = () => ok(r.error?.message || e.message);
        r.readAsArrayBuffer(file.size > 0 ? file.slice(0, 1) : file);
      });
      return checker.unreadable(name, why);
    }
    const { done, value } = chunk;
    if (done) break;
    checker.push(value);
    at += value.length;
    progress(at);
    if (buffer) buffer = value.buffer;
  }
  const index = checker.end();
  const fr = new FileReaderSync();
  for (const row of checker.excerptRows(index)) {
    const bytes = new Uint8Array(fr.readAsArrayBuffer(file.slice(row, row + 16)));
    checker.addExcerpt(index, row, bytes);
  }
  return index;
}

async function check({ id, files, options }) {
  const total = files.reduce((n, f) => n + f.file.size, 0);
  let before = 0;
  let last = 0;
  const optionsJson = JSON.stringify(options);
  const checker = new Checker(optionsJson);
  try {
    for (const [i, { file, name }] of files.entries()) {
      postMessage({ type: "progress", id, name, index: i, count: files.length, done: before, total });
      await checkOne(checker, file, name, (end) => {
        const now = performance.now();
        if (now - last > 50) {
          last = now;
          postMessage({ type: "progress", id, name, index: i, count: files.length, done: before + end, total });
        }
      });
      before += file.size;
    }
    postMessage({ type: "progress", id, name: "", index: files.length, count: files.length, done: total, total });
    const json = checker.render("json");
    const report = JSON.parse(json);
    const rules = new Set(report.files.flatMap((f) => f.findings.map((x) => x.rule)));
    const texts = Object.fromEntries([...rules].map((r) => [r, explain(r)]));
    // each finding's text as the human report has it, file by file
    const findingTexts = report.files.map((_, i) => checker.findingTexts(i));
    // and what it says of each file besides (its verdict line, why it is
    // unreadable, its findings not shown), and its last line
    const fileTexts = report.files.map((_, i) => checker.fileTexts(i));
    const pictures = [];
    const transfer = [];
    for (const [i, { file }] of files.entries()) {
      const f = report.files[i];
      let p;
      // a picture only of a file the run calls valid (warnings or not),
      // never of one it calls invalid; read in the byte order stated
      if (f.verdict === "valid" && f.header && f.header.shape.length >= 2 && f.header.shape.length <= 3) {
        try {
          p = picture(file.size, readerOf(file), 16, optionsJson);
        } catch {
          p = undefined; // no picture of a stream that cannot be decoded
        }
      }
      pictures.push(p ?? null);
      if (p) transfer.push(p.pixels.buffer);
    }
    postMessage({
      type: "done", id, json, report, texts, findingTexts, fileTexts, pictures,
      summary: checker.summary(),
      human: checker.render("human"),
      sarif: checker.render("sarif"),
      exitStatus: checker.exitStatus(),
      moduleMemory: (await ready).memory.buffer.byteLength,
    }, transfer);
  } finally {
    checker.free();
  }
}

function fix({ id, file, name, options }) {
  const parts = [];
  // the run's options: the same checks and the stated byte order as the
  // report the repair button came from (idx-validate --fix with its flags)
  const json = repair(name, file.size, readerOf(file), (chunk) => parts.push(chunk), JSON.stringify(options ?? {}));
  postMessage({ type: "repaired", id, name, repair: JSON.parse(json), blob: new Blob(parts) });
}

self.onmessage = async (e) => {
  const m = e.data;
  try {
    await ready;
    if (m.type === "check") await check(m);
    else if (m.type === "repair") fix(m);
    else if (m.type === "version") postMessage({ type: "version", id: m.id, version: version() });
  } catch (err) {
    postMessage({ type: "error", id: m.id, message: String(err?.message ?? err) });
  }
};
