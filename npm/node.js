// Node 18+: the module is read from the package's folder, synchronously, on
// import; files are read at offsets with fs.readSync, in bounded memory.
import { readFileSync, openSync, fstatSync, readSync, closeSync, statSync, readdirSync, realpathSync } from "node:fs";
import { userInfo } from "node:os";
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

/** A Node file-system error as the module's host returns it. */
function refused(e) {
  if (!e.code) throw e;
  return { error: ioMessage(e), code: e.code };
}

/** What a stat says a path is, in the module's words. */
function kindOf(st) {
  if (st.isDirectory()) return "dir";
  if (st.isFile()) return "file";
  if (st.isFIFO()) return "fifo";
  if (st.isSocket()) return "socket";
  if (st.isBlockDevice()) return "block";
  if (st.isCharacterDevice()) return "char";
  return "other";
}

/**
 * The file system as the module's Command asks for it (see
 * crates/idx-wasm/src/host.rs): the command's own configuration discovery
 * and directory walk run in the module; this only stats, lists and reads.
 */
export const host = {
  cwd: () => process.cwd(),
  stat(path) {
    try {
      const st = statSync(path, { bigint: true });
      return { kind: kindOf(st), id: `${st.dev}:${st.ino}` };
    } catch (e) {
      return refused(e);
    }
  },
  readDir(path) {
    try {
      return readdirSync(path);
    } catch (e) {
      return refused(e);
    }
  },
  read(path) {
    try {
      return readFileSync(path);
    } catch (e) {
      return refused(e);
    }
  },
  realpath(path) {
    try {
      return realpathSync.native(path);
    } catch (e) {
      return refused(e);
    }
  },
  magic(path) {
    let fd;
    try {
      fd = openSync(path, "r");
      const b = new Uint8Array(4);
      return fdReader(fd)(0, b) === 4 ? b : null;
    } catch {
      return null;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  },
  env: (name) => process.env[name] ?? null,
  // Rust's std::env::home_dir: HOME unless unset or empty, then the
  // password database (os.homedir() would answer an empty HOME as "")
  home() {
    if (process.env.HOME) return process.env.HOME;
    try {
      return userInfo().homedir;
    } catch {
      return null;
    }
  },
};

/**
 * Pushes standard input into `command` chunk by chunk (bounded memory), as
 * the input `-`: read synchronously from descriptor 0 until its end.
 */
export function checkStdin(command) {
  command.beginStdin();
  const chunk = new Uint8Array(1 << 16);
  for (;;) {
    let n;
    try {
      n = readSync(0, chunk, 0, chunk.length, null);
    } catch (e) {
      if (e.code === "EAGAIN") {
        // a non-blocking pipe with nothing yet: wait a little
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        continue;
      }
      if (e.code === "EOF") break;
      throw e;
    }
    if (n === 0) break;
    command.push(chunk.subarray(0, n));
  }
  command.end();
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
