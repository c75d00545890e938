// The npm command against the native one, on the whole corpus: the same
// bytes on standard output and standard error in every format, and the
// same exit status; its help and errors are the native parser's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { corpusFiles, native, npmCli, nativeCli, pkg, root, run } from "./support.mjs";

const files = corpusFiles();

test("the corpus is there", () => {
  assert.ok(files.length > 150, `${files.length} corpus files`);
});

test("--format json equals the native command's for every corpus file, checked one by one", () => {
  for (const f of files) {
    const a = npmCli(["--format", "json", f]);
    const b = nativeCli(["--format", "json", f]);
    assert.equal(a.stderr, "", f);
    assert.equal(a.stdout, b.stdout, f);
    assert.equal(a.status, b.status, f);
  }
});

test("--format json equals the native command's for the whole corpus at once (the dataset rules see every file)", () => {
  const a = npmCli(["--format", "json", ...files]);
  const b = nativeCli(["--format", "json", ...files]);
  const ja = JSON.parse(a.stdout);
  const jb = JSON.parse(b.stdout);
  assert.equal(ja.files.length, files.length);
  ja.files.forEach((f, i) => assert.deepEqual(f, jb.files[i], f.path));
  assert.equal(a.stdout, b.stdout);
  assert.equal(a.status, b.status);
});

/** The native command's formats, from its own parser's error for a bad one. */
function nativeFormats() {
  const e = nativeCli(["--format", "no-such-format", files[0]]).stderr;
  const m = /\[possible values: ([^\]]+)\]/.exec(e);
  assert.ok(m, e);
  return m[1].split(", ");
}

test("every format, --statistics included, is the native command's byte for byte, relative and absolute paths alike", () => {
  const formats = nativeFormats();
  assert.ok(formats.length >= 7 && formats.includes("sarif"), formats.join(" "));
  const some = [...files.slice(0, 30), ...files.filter((p) => p.endsWith(".gz")).slice(0, 5)];
  const absolute = some.slice(0, 8).map((p) => join(root, p));
  for (const format of formats) {
    for (const args of [files, some, absolute, ["--statistics", ...some]]) {
      const what = `--format ${format} ${args[0]}... (${args.length})`;
      const a = npmCli(["--format", format, ...args]);
      const b = nativeCli(["--format", format, ...args]);
      assert.equal(a.stdout, b.stdout, what);
      assert.equal(a.stderr, b.stderr, what);
      assert.equal(a.status, b.status, what);
    }
  }
  // an absolute path is a file:// URI in SARIF, as natively
  const sarif = JSON.parse(npmCli(["--format", "sarif", absolute[0]]).stdout);
  assert.match(sarif.runs[0].artifacts[0].location.uri, /^file:\/\/\//);
});

test("help, version and usage errors are the native parser's", () => {
  const f = files[0];
  for (const args of [["--help"], ["-h"], ["--version"], ["-V"], [], ["--no-such-flag", f], ["--formt", "json", f],
    ["--format", "yaml", f], ["--max-decompressed", "lots", f], ["--pair", f], ["--completions", "bash"], ["--man"]]) {
    const a = npmCli(args);
    // without --isolated: usage errors repeat the arguments given
    const b = run(native(), args);
    assert.equal(a.stdout, b.stdout, args.join(" "));
    assert.equal(a.stderr, b.stderr, args.join(" "));
    assert.equal(a.status, b.status, args.join(" "));
  }
  assert.match(npmCli(["--help"]).stdout, /--max-decompressed <SIZE>/);
});

test("the npm command has no parser, format list or help text of its own", () => {
  const bin = readFileSync(join(pkg(), "bin/idx-validate.js"), "utf8");
  const code = bin.replace(/^\s*\/\/.*$/gm, "");
  for (const own of ["--", "human", "sarif", "default", "argv[", "Usage"]) {
    assert.ok(!code.includes(own), `bin/idx-validate.js holds ${JSON.stringify(own)}`);
  }
});

test("what writes files is refused, not ignored", () => {
  const f = files[0];
  for (const args of [["--fix", f], ["--diff", f], ["--output-file", "report.txt", f], ["--output", "out.idx", "--fix", f]]) {
    const a = npmCli(args);
    assert.equal(a.status, 2, args.join(" "));
    assert.equal(a.stdout, "", args.join(" "));
    assert.match(a.stderr, /^error: --[a-z-]+ needs the native idx-validate/, args.join(" "));
  }
});

test("options mean what they mean natively", () => {
  const f = files.find((p) => p.includes("invalid/")) ;
  for (const args of [
    ["--select", "IDX2", f],
    ["--ignore", "IDX1,IDX2", f],
    ["--max-findings", "1", f],
    ["--max-decompressed", "1KiB", ...files.filter((p) => p.endsWith(".gz")).slice(0, 3)],
    ["--deny-warnings", ...files.slice(0, 20)],
    ["--expect-dtype", "f32", "--expect-shape", "*,28,28", files[0]],
  ]) {
    const a = npmCli(["--format", "json", ...args]);
    const b = nativeCli(["--format", "json", ...args]);
    assert.equal(a.stdout, b.stdout, args.join(" "));
    assert.equal(a.status, b.status, args.join(" "));
  }
});

test("exit statuses: 0 valid, 1 invalid, 2 unreadable or misused", () => {
  const valid = files.find((p) => p.startsWith("corpus/valid/"));
  const invalid = files.find((p) => p.startsWith("corpus/invalid/"));
  assert.equal(npmCli([valid]).status, 0);
  assert.equal(npmCli([invalid]).status, 1);
  const missing = npmCli(["--format", "json", "no/such/file.idx"]);
  assert.equal(missing.status, 2);
  assert.equal(missing.stdout, nativeCli(["--format", "json", "no/such/file.idx"]).stdout);
  assert.equal(npmCli(["--format", "yaml", valid]).status, 2);
  assert.equal(npmCli(["--no-such-flag", valid]).status, 2);
  assert.equal(npmCli([]).status, 2);
  assert.equal(npmCli(["--explain", "IDX203"]).stdout, nativeCli(["--explain", "IDX203"]).stdout);
  assert.equal(npmCli(["--explain", "trailing-bytes"]).stdout, nativeCli(["--explain", "trailing-bytes"]).stdout);
  const noRule = npmCli(["--explain", "IDX999"]);
  assert.equal(noRule.status, 2);
  assert.equal(noRule.stderr, nativeCli(["--explain", "IDX999"]).stderr);
  assert.equal(npmCli(["--list-rules"]).stdout, nativeCli(["--list-rules"]).stdout);
});

test("--severity, --assume-byte-order and --expect-range mean what they mean natively", () => {
  const little = files.filter((p) => p.includes("/impl-little-endian-"));
  assert.ok(little.length >= 5, `${little.length} little-endian corpus files`);
  const labels = little.filter((p) => /-i(16|32)-labels/.test(p));
  assert.equal(labels.length, 2);
  const runs = [];
  for (const f of little) {
    for (const args of [
      [],
      ["--severity", "IDX501=error"],
      ["--severity=likely-little-endian=error"],
      ["--severity", "IDX501=info"],
      ["--severity", "IDX501=error", "--severity", "IDX501=warning"],
      ["--assume-byte-order", "little"],
      ["--assume-byte-order=big"],
      ["--severity", "IDX501=error", "--assume-byte-order", "little"],
      ["--severity", "IDX501=error", "--assume-byte-order", "big"],
      ["--deny-warnings"],
    ]) runs.push([...args, f]);
  }
  for (const f of labels) {
    runs.push(["--expect-range", "0..9", f]);
    runs.push(["--expect-range=-5..100000", f]);
    runs.push(["--classes", "10", f]);
  }
  // the whole corpus at once, the warning made an error
  runs.push(["--severity", "IDX501=error", ...files]);
  runs.push(["--assume-byte-order", "little", ...files]);
  for (const args of runs) {
    const what = args.filter((a) => !a.startsWith("corpus/")).join(" ") + ` on ${args.length > 40 ? "the corpus" : args.at(-1)}`;
    // the human text too for the whole corpus and for one file (the JSON
    // for every run: it holds every field of every finding)
    const formats = args.length > 40 || args.at(-1) === little[0] ? ["json", "human"] : ["json"];
    for (const format of formats) {
      const a = npmCli(["--format", format, ...args]);
      const b = nativeCli(["--format", format, ...(format === "human" ? ["--color", "never"] : []), ...args]);
      assert.equal(a.stdout, b.stdout, `${format}: ${what}`);
      assert.equal(a.status, b.status, `${format}: ${what}`);
    }
  }
  // the warning: valid by default, invalid with the override
  const one = little.find((p) => p.includes("one-picture")) ?? little[0];
  const warned = JSON.parse(npmCli(["--format", "json", one]).stdout).files[0];
  assert.equal(warned.verdict, "valid", one);
  const w = warned.findings.find((x) => x.rule === "IDX501");
  assert.equal(w?.severity, "warning", one);
  assert.match(w.message, /score .* bits/);
  assert.match(w.message, /a statistical test, not a proof/);
  const failed = npmCli(["--format", "json", "--severity", "IDX501=error", one]);
  assert.equal(failed.status, 1);
  assert.equal(JSON.parse(failed.stdout).files[0].verdict, "invalid");
});

test("bad --severity, --assume-byte-order and --expect-range values are usage errors, as natively", () => {
  const f = files.find((p) => p.includes("/impl-little-endian-"));
  for (const args of [
    ["--severity", "IDX101=warning"],
    ["--severity", "IDX501=fatal"],
    ["--severity", "IDX999=error"],
    ["--severity", "IDX501"],
    ["--assume-byte-order", "middle"],
    ["--expect-range", "9..0"],
    ["--expect-range", "lots"],
  ]) {
    const a = npmCli(["--format", "json", ...args, f]);
    const b = nativeCli(["--format", "json", ...args, f]);
    assert.equal(b.status, 2, `native: ${args.join(" ")}`);
    assert.equal(a.status, 2, args.join(" "));
    assert.equal(a.stdout, "", args.join(" "));
    assert.notEqual(a.stderr, "", args.join(" "));
  }
});
