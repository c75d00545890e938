// Conformance adapter (protocol 2 reader) for this toolkit's WebAssembly
// build, as the npm package idx-validate ships it (installed from its
// tarball into ENV): `node reader.mjs ENV FILE` prints the content encoding
// of FILE, read at offsets through the module (`dumpContent`, what
// `idx dump --error-document` does), or its error document and exits 1;
// `node reader.mjs ENV --persistent` prints {"protocol": 2}, then answers
// one {"file": PATH} request per line, in order.
import { openSync, fstatSync, closeSync, writeSync } from "node:fs";
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
function answer(file) {
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

if (arg === "--persistent") {
  process.stdout.write('{"protocol": 2}\n');
  for await (const line of createInterface({ input: process.stdin })) {
    const [out] = answer(JSON.parse(line).file);
    writeSync(1, out);
  }
} else {
  const [out, status] = answer(arg);
  writeSync(1, out);
  process.exitCode = status;
}
