// Runs a wasm32-wasip1 program (a test binary: cargo's target runner) under
// Node's WASI, with the host's root directory preopened as `/`, so paths
// the tests compute at build time (CARGO_MANIFEST_DIR) resolve, and the
// environment passed through. Exits with the program's status.
//
//   node scripts/wasm/wasi-run.mjs PROGRAM.wasm [ARGS...]
import { readFile } from "node:fs/promises";
import { WASI } from "node:wasi";
import process from "node:process";

const [program, ...args] = process.argv.slice(2);
if (!program) {
  console.error("usage: wasi-run.mjs PROGRAM.wasm [ARGS...]");
  process.exit(2);
}
const wasi = new WASI({
  version: "preview1",
  args: [program, ...args],
  env: { ...process.env, TMPDIR: process.env.TMPDIR ?? "/tmp" },
  preopens: { "/": "/" },
  returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(program));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
