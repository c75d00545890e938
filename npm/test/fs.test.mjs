// What the npm command does with the file system beyond the files named,
// against the native command on the same inputs, byte for byte (standard
// output, standard error, exit status), human and JSON: standard input
// (`-`), the configuration file (found from the current directory, or
// `--config`) and directory walks (order, hidden files, .gitignore,
// .ignore, .git/info/exclude, git's global excludes file, ignore files that
// are not UTF-8, --exclude, symbolic links and their loops, files that do
// not look like IDX, empty directories).
//
// The trees are written under target/npm-fs-tests (inside the repository);
// HOME, XDG_CONFIG_HOME and GIT_CONFIG_SYSTEM point into them (and
// GIT_CONFIG_GLOBAL is unset), so no user's git excludes or configuration is
// read.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { userInfo } from "node:os";
import { gzipSync } from "node:zlib";
import { native, npmCli, pkg, root, run } from "./support.mjs";

const base = join(root, "target/npm-fs-tests");

/** A labels file of `n` items (u8 [n]), valid, with `extra` trailing bytes. */
function labels(n, extra = 0) {
  const b = new Uint8Array(8 + n + extra);
  b.set([0, 0, 8, 1, 0, 0, 0, n]);
  for (let i = 0; i < n; i++) b[8 + i] = i % 10;
  b.fill(7, 8 + n);
  return b;
}

/** Writes `files` (path: bytes or text; a `{link}` is a symbolic link) under a fresh `dir`. */
function tree(dir, files) {
  const top = join(base, dir);
  rmSync(top, { recursive: true, force: true });
  mkdirSync(top, { recursive: true });
  for (const [p, content] of Object.entries(files)) {
    const full = join(top, p);
    mkdirSync(join(full, ".."), { recursive: true });
    if (content === null) mkdirSync(full, { recursive: true });
    else if (typeof content === "object" && !ArrayBuffer.isView(content)) symlinkSync(content.link, full);
    else writeFileSync(full, content);
  }
  return top;
}

/**
 * The environment of a run in `cwd`: git's configuration and global
 * excludes file looked for only inside it (no GIT_CONFIG_GLOBAL, a
 * GIT_CONFIG_SYSTEM that is not there), `extra` added (an undefined value
 * unsets).
 */
const env = (cwd, extra = {}) => ({
  ...process.env,
  HOME: cwd,
  XDG_CONFIG_HOME: join(cwd, ".no-xdg"),
  GIT_CONFIG_GLOBAL: undefined,
  GIT_CONFIG_SYSTEM: join(cwd, ".no-system-gitconfig"),
  NO_COLOR: "1",
  ...extra,
});

/**
 * Runs both commands with `args` in `cwd` (and `input` on standard input,
 * and the variables `extra` in the environment); asserts the same bytes and
 * status.
 */
function same(cwd, args, input, extra) {
  const opts = { cwd, env: env(cwd, extra), input: input ?? "" };
  const a = npmCli(args, opts);
  const b = run(native(), args, opts);
  const what = `${args.join(" ")} (in ${cwd.slice(root.length + 1)}${extra ? ` with ${JSON.stringify(extra)}` : ""})`;
  assert.equal(a.stderr, b.stderr, `stderr: ${what}`);
  assert.equal(a.stdout, b.stdout, `stdout: ${what}`);
  assert.equal(a.status, b.status, `status: ${what}`);
  return b;
}

test("standard input (-) is the native command's, alone and among files", () => {
  const dir = tree("stdin", { "a.idx": labels(10), "b.idx": labels(12, 3) });
  const bad = labels(10, 5);
  for (const format of ["human", "json", "short", "sarif"]) {
    const b = same(dir, ["--format", format, "-"], bad);
    assert.equal(b.status, 1, format);
    same(dir, ["--format", format, "-"], labels(10));
    same(dir, ["--format", format, "a.idx", "-", "b.idx"], bad);
  }
  // gzip on standard input (whole, and cut after its 10-byte header), and
  // nothing at all
  same(dir, ["--format", "json", "-"], gzipSync(bad));
  same(dir, ["--format", "json", "-"], gzipSync(labels(10)).subarray(0, 10));
  same(dir, ["-"], new Uint8Array(0));
  // a payload larger than a chunk
  const big = new Uint8Array(8 + 300000);
  big.set([0, 0, 8, 1, 0, 4, 0x93, 0xe0]);
  same(dir, ["--format", "json", "-"], big);
  const named = JSON.parse(same(dir, ["--format", "json", "-"], bad).stdout);
  assert.equal(named.files[0].path, "<stdin>");
});

test("the configuration file is found and read as natively: in the current directory, a parent's pyproject.toml, --config", () => {
  const dir = tree("config", {
    "idx-validate.toml": 'ignore = ["IDX203"]\nmax-findings = 1\n',
    "bad.idx": labels(10, 4),
    "other.toml": 'select = ["IDX1"]\ndeny-warnings = true\n',
    "invalid.toml": 'deny-warnings = "yes"\n',
    "py/pyproject.toml": '[project]\nname = "x"\n\n[tool.idx-validate]\nignore = ["trailing-bytes"]\n',
    "py/sub/bad.idx": labels(10, 4),
    "plain/pyproject.toml": '[project]\nname = "x"\n',
    "plain/bad.idx": labels(10, 4),
  });
  for (const format of ["human", "json"]) {
    // the file in the current directory turns the finding off: exit 0
    const b = same(dir, ["--format", format, "bad.idx"]);
    assert.equal(b.status, 0, format);
    same(dir, ["--format", format, "--isolated", "bad.idx"]);
    same(dir, ["--format", format, "--config", "other.toml", "bad.idx"]);
    same(dir, ["--format", format, "--config", join(dir, "other.toml"), "bad.idx"]);
    same(dir, ["--format", format, "--select", "IDX2", "bad.idx"]);
    // a parent's pyproject.toml with the table; one without it does not count
    same(join(dir, "py/sub"), ["--format", format, "bad.idx"]);
    same(join(dir, "plain"), ["--format", format, "bad.idx"]);
  }
  // errors: an invalid file, a missing one, --config with --isolated
  assert.equal(same(dir, ["--config", "invalid.toml", "bad.idx"]).status, 2);
  assert.equal(same(dir, ["--config", "missing.toml", "bad.idx"]).status, 2);
  assert.equal(same(dir, ["--config", "other.toml", "--isolated", "bad.idx"]).status, 2);
  // fix = true would write: refused, unless --no-fix
  const fix = tree("config-fix", { "idx-validate.toml": "fix = true\n", "a.idx": labels(3) });
  const refused = npmCli(["a.idx"], { cwd: fix, env: env(fix) });
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /^error: the configuration's `fix = true` needs the native idx-validate/);
  same(fix, ["--no-fix", "--format", "json", "a.idx"]);
});

/** A tree with what a walk takes and what it leaves out. */
function walkTree() {
  const files = {
    ".git/info/exclude": "excluded-by-info.idx\n",
    ".gitignore": "ignored-by-git.idx\nbuild/\n*.tmp\n",
    ".ignore": "ignored-by-ignore.idx\n",
    "a.idx": labels(10),
    "t10k-labels-idx1-ubyte": labels(10),
    "magic.bin": labels(4),
    "notes.txt": "not IDX\n",
    "README": "",
    ".hidden.idx": labels(3),
    ".hiddendir/x.idx": labels(3),
    "ignored-by-git.idx": labels(3),
    "ignored-by-ignore.idx": labels(3),
    "excluded-by-info.idx": labels(3),
    "c.tmp": labels(3),
    "build/c.idx": labels(3),
    "sub/.gitignore": "!ignored-by-git.idx\n",
    "sub/ignored-by-git.idx": labels(5),
    "sub/d.idx": labels(10, 2),
    "sub/old/e.idx": labels(10, 1),
    "sub/Z.idx": labels(2),
    // walking sub: its parent's .ignore and .gitignore apply
    "sub/ignored-by-ignore.idx": labels(3),
    "sub/c.tmp": labels(3),
    // a git worktree: .git names its git directory, whose commondir holds info/exclude
    "main.git/info/exclude": "by-worktree.idx\n",
    "main.git/worktrees/wt/commondir": "../..\n",
    "worktree/by-worktree.idx": labels(3),
    "worktree/kept.idx": labels(3),
    "sub/b.IDX": labels(2),
    "link-to-sub": { link: "sub" },
    "loop": { link: "." },
    "broken.idx": { link: "nowhere.idx" },
    "nested/repo/.git": null,
    "nested/repo/.gitignore": "kept.idx\n",
    "nested/repo/kept.idx": labels(3),
    "nested/repo/ignored-by-git.idx": labels(3),
    "empty": null,
    "only-text/a.txt": "text\n",
  };
  const dir = tree("walk", files);
  writeFileSync(join(dir, "worktree/.git"), `gitdir: ${join(dir, "main.git/worktrees/wt")}\n`);
  // a FIFO in the walk, where mkfifo is there
  spawnSync("mkfifo", [join(dir, "sub/pipe.idx")]);
  return dir;
}

test("directory walks take and leave out what the native walk does, in its order", () => {
  const dir = walkTree();
  const runs = [
    ["."],
    ["walk-root"],
    ["sub"],
    ["./sub", "a.idx"],
    ["--hidden", "."],
    ["--no-ignore", "."],
    ["--all-files", "."],
    ["--exclude", "old/**", "--exclude", "*.bin", "."],
    ["-q", "."],
    ["empty"],
    ["--allow-empty", "empty"],
    ["only-text"],
    ["nested"],
    ["worktree"],
    ["--pair", "a.idx", "t10k-labels-idx1-ubyte", "sub"],
  ];
  for (const format of ["human", "json", "github"]) {
    for (const args of runs) {
      const a = args[0] === "walk-root" ? [dir] : args;
      same(dir, ["--format", format, ...a]);
    }
  }
  // what the walk took, named: the order and the filters are not vacuous
  const json = JSON.parse(same(dir, ["--format", "json", "."]).stdout);
  const paths = json.files.map((f) => f.path);
  assert.ok(paths.includes("./a.idx") && paths.includes("./magic.bin") && paths.includes("./sub/ignored-by-git.idx"), paths.join(" "));
  assert.ok(paths.includes("./link-to-sub/d.idx"), paths.join(" "));
  assert.ok(paths.includes("./worktree/kept.idx"), paths.join(" "));
  for (const gone of ["ignored-by-ignore.idx", "excluded-by-info.idx", "./ignored-by-git.idx", "c.tmp", "build/", ".hidden", "notes.txt", "nested/repo/kept.idx", "by-worktree"]) {
    assert.ok(!paths.some((p) => p.includes(gone)), `${gone} in ${paths.join(" ")}`);
  }
  // and the configuration's exclude, from the current directory
  writeFileSync(join(dir, "idx-validate.toml"), 'exclude = ["sub/**"]\n');
  for (const format of ["human", "json"]) same(dir, ["--format", format, "."]);
  rmSync(join(dir, "idx-validate.toml"));
});

test("git's global excludes file and ignore files that are not UTF-8 are read as natively", () => {
  const dir = tree("global", {
    ".git": null,
    "a.idx": labels(3),
    "global.idx": labels(3),
    "anchored.idx": labels(3),
    "decoy.idx": labels(3),
    "sub/anchored.idx": labels(3),
    "sub/global.idx": labels(3),
    // ignore files that are not UTF-8 (their lines up to the first bad one
    // count), with CRLF lines, with a byte-order mark
    "bad-utf8/.gitignore": Buffer.from("first.idx\r\n\xff\xfe bad.idx\nthird.idx\n", "latin1"),
    "bad-utf8/.ignore": Buffer.from("\xef\xbb\xbfbom.idx\r\nlast.idx\xc3", "latin1"),
    "bad-utf8/first.idx": labels(3),
    "bad-utf8/third.idx": labels(3),
    "bad-utf8/bom.idx": labels(3),
    "bad-utf8/last.idx": labels(3),
    "bad-utf8/kept.idx": labels(3),
    // git's configuration and excludes files, where the cases put HOME and XDG_CONFIG_HOME
    "cfg/xdg-ignore/git/ignore": "global.idx\n/sub/anchored.idx\n",
    "cfg/home-config/.config/git/ignore": "global.idx\n",
    "cfg/xdg-config/git/config": "[core]\n\texcludesFile = ~/my-excludes\n",
    "cfg/home-tilde/my-excludes": "global.idx\n",
    "cfg/ex": "global.idx\n",
    "cfg/ex-decoy": "decoy.idx\n",
    "cfg/xdg-decoy/git/ignore": "decoy.idx\n",
    "cfg/xdg-bad/git/ignore": Buffer.from("global.idx\n\xfe\n/sub/anchored.idx\n", "latin1"),
    "cfg/home-empty": null,
    "cfg/home-gitconfig": null,
    "cfg/home-decoy": null,
  });
  const cfg = (p) => join(dir, "cfg", p);
  const ex = cfg("ex");
  writeFileSync(cfg("home-gitconfig/.gitconfig"), `[user]\nname = x\n[core]\n    excludesfile = "${ex}"\n`);
  writeFileSync(cfg("xdg-decoy/git/config"), `[core]\nexcludesFile = ${cfg("ex-decoy")}\n`);
  writeFileSync(cfg("home-decoy/.gitconfig"), `[core]\nexcludesFile = ${cfg("ex-decoy")}\n`);
  writeFileSync(cfg("global-config"), `[core]\nEXCLUDESFILE=${ex}\n`);
  writeFileSync(cfg("system-config"), `[core]\n\texcludesFile = ${ex}\n`);
  const empty = cfg("home-empty");
  // each case: its environment, what the walk of . leaves out and keeps
  const cases = [
    [{ HOME: empty }, [], ["./global.idx", "./sub/anchored.idx"]],
    [{ HOME: empty, XDG_CONFIG_HOME: cfg("xdg-ignore") }, ["./global.idx", "./sub/anchored.idx", "./sub/global.idx"], ["./anchored.idx", "./decoy.idx"]],
    [{ HOME: cfg("home-config"), XDG_CONFIG_HOME: "" }, ["./global.idx"], ["./sub/anchored.idx"]],
    [{ HOME: cfg("home-config"), XDG_CONFIG_HOME: undefined }, ["./global.idx"], ["./sub/anchored.idx"]],
    [{ HOME: cfg("home-tilde"), XDG_CONFIG_HOME: cfg("xdg-config") }, ["./global.idx"], ["./decoy.idx"]],
    [{ HOME: cfg("home-gitconfig"), XDG_CONFIG_HOME: cfg("xdg-decoy") }, ["./global.idx"], ["./decoy.idx"]],
    [{ HOME: cfg("home-decoy"), GIT_CONFIG_GLOBAL: cfg("global-config") }, ["./global.idx"], ["./decoy.idx"]],
    [{ HOME: empty, GIT_CONFIG_SYSTEM: cfg("system-config") }, ["./global.idx"], ["./decoy.idx"]],
    [{ HOME: empty, XDG_CONFIG_HOME: cfg("xdg-bad") }, ["./global.idx"], ["./sub/anchored.idx"]],
  ];
  // --no-ignore reads no global file
  same(dir, ["--no-ignore", "."], undefined, cases[1][0]);
  for (const [extra, gone, kept] of cases) {
    same(dir, ["."], undefined, extra);
    for (const args of [["sub"], ["./sub", "bad-utf8"], [dir]]) same(dir, ["--format", "json", ...args], undefined, extra);
    // what the walk took: the cases are not vacuous
    const paths = JSON.parse(same(dir, ["--format", "json", "."], undefined, extra).stdout).files.map((f) => f.path);
    const what = `${JSON.stringify(extra)}: ${paths.join(" ")}`;
    for (const g of [...gone, "./bad-utf8/first.idx", "./bad-utf8/bom.idx"]) assert.ok(!paths.includes(g), `${g} in ${what}`);
    for (const k of [...kept, "./a.idx", "./bad-utf8/third.idx", "./bad-utf8/last.idx", "./bad-utf8/kept.idx"]) {
      assert.ok(paths.includes(k), `${k} not in ${what}`);
    }
  }
});

test("the home directory is found as Rust's std::env::home_dir finds it: HOME, unless it is unset or empty, then the password database", async (t) => {
  // (os.homedir() answers an empty HOME with "", which would make the walk
  // read .gitconfig and .config/git/ignore from the current directory; the
  // walk's cases above cannot set HOME empty without reading the real home)
  const { host } = await import(join(pkg(), "node.js"));
  const saved = process.env.HOME;
  let passwd;
  try {
    passwd = userInfo().homedir;
  } catch {
    // a user with no entry in the password database: nothing to compare with
    t.skip("no password database entry for this user");
    return;
  }
  assert.notEqual(passwd, "");
  try {
    process.env.HOME = "/a/home/of/its/own";
    assert.equal(host.home(), "/a/home/of/its/own");
    process.env.HOME = "";
    assert.equal(host.home(), passwd);
    delete process.env.HOME;
    assert.equal(host.home(), passwd);
  } finally {
    if (saved === undefined) delete process.env.HOME;
    else process.env.HOME = saved;
  }
});
