// Node 18+: the module is read from the package's folder, synchronously, on
// import; files are read at offsets with fs.readSync, in bounded memory.
import { readFileSync, openSync, fstatSync, readSync, closeSync } from "node:fs";
import { initSync } from "./idx_wasm.js";
import * as api from "./api.js";
import { Checker, Command } from "./idx_wasm.js";

initSync({ module: readFileSync(new URL("./idx_wasm_bg.wasm", import.meta.url)) });

/** The text of a Node file-system error as the Rust command words it. */
export function ioMessage(e) {
  const rust = {
    ENOENT: ["No such file or directory", 2],
    EACCES: ["Permission denied", 13],
    EISDIR: ["Is a directory", 21],
    ENOTDIR: ["Not a directory", 20],
    ELOOP: ["Too many levels of symbolic links", 40],
  }[e.code];
  return rust ? `${rust[0]} (os error ${rust[1]})` : e.message;
}

/**
 * readAt(offset, target) over a file descriptor: fills `target` (a view of
 * the library's buffer in the module's memory) from `offset`, returns the
 * bytes read.
 */
export function fdReader(fd) {
  return (offset, target) => {
    let got = 0;
    while (got < target.length) {
      const n = readSync(fd, target, got, target.length - got, offset + got);
      if (n === 0) break;
      got += n;
    }
    return got;
  };
}

/**
 * Checks the file at `path` into `checker` (a Checker or a Command), reading it at
 * offsets as the library asks: memory does not grow with the file.
 */
export function checkFile(checker, path) {
  let fd;
  try {
    fd = openSync(path, "r");
    const st = fstatSync(fd);
    if (st.isDirectory()) {
      const e = new Error("is a directory");
      e.code = "EISDIR";
      throw e;
    }
    checker.checkSource(path, st.size, fdReader(fd));
  } catch (e) {
    if (!e.code) throw e;
    checker.unreadable(path, ioMessage(e));
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Validates files by path as one run of the command (the dataset rules see
 * them together); resolves to `{output, exitStatus}` in `options.format`
 * (default `human`).
 */
export async function validateFiles(paths, options = {}) {
  const { format = "human", name: _n, ...rest } = options;
  const checker = new Checker(JSON.stringify(rest));
  try {
    for (const p of paths) checkFile(checker, p);
    return { output: checker.render(format), exitStatus: checker.exitStatus() };
  } finally {
    checker.free();
  }
}

export { Command };
export const { validate, explain, ruleUrl, rules, listRules, version, BYTES_NAME } = api;
export async function load() {}
