// Conformance adapter (protocol 3 reader) for this toolkit's WebAssembly
// build, as the npm package idx-validate ships it (installed from its
// tarball into ENV): `node reader.mjs ENV FILE` prints the content encoding
// of FILE, read at offsets through the module (`dumpContent`, what
// `idx dump --error-document` does), or its error document and exits 1;
// `node reader.mjs ENV --persistent` prints {"protocol": 3}, then answers
// one {"id": N, "file": PATH} request per line, in order, each answer with
// the request's "id".
import { openSync, fstatSync, closeSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createInterface } from "node:readline";

const [env, arg] = process.argv.slice(2);
if (!env || !arg) {
  process.stderr.write("usage: node reader.mjs ENV FILE | ENV --persistent\n");
  process.exit(2);
}
const pkg = resolve(env, "node_modules", "idx-validate");
const { fdReader } = await import(pathToFileURL(join(pkg, "node.js")).href); // loads the module
const { dumpContent } = await import(pathToFileURL(join(pkg, "idx_wasm.js")).href);

/** The answer for `file` (a whole line) and the exit status. */
function answer_(file) {
  const parts = [];
  let fd;
  try {
    fd = openSync(file, "r");
    const size = fstatSync(fd).size;
    const status = dumpContent(file, size, fdReader(fd), (chunk) => parts.push(Buffer.from(chunk)));
    return [Buffer.concat(parts), status];
  } catch (e) {
    return [Buffer.from(JSON.stringify({ error: { message: String(e?.message ?? e) } }) + "\n"), 1];
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes to standard output, waiting until it is taken (a pipe may be full). */
const out = (bytes) => new Promise((ok) => process.stdout.write(bytes, ok));

if (arg === "--persistent") {
  await out('{"protocol": 3}\n');
  for await (const line of createInterface({ input: process.stdin })) {
    const req = JSON.parse(line);
    const [answer] = answer_(req.file);
    // the request's id first, then the answer's own fields
    await out(Buffer.concat([Buffer.from(`{"id": ${JSON.stringify(req.id)}, `), answer.subarray(1)]));
  }
} else {
  const [answer, status] = answer_(arg);
  await out(answer);
  process.exitCode = status;
}
