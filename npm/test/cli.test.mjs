// The npm command against the native one, on the whole corpus: the same
// JSON report (every field: no field of it names the program), the same
// SARIF but for the tool's name and version, the same human text and the
// same exit status.
import { test } from "node:test";
import assert from "node:assert/strict";
import { corpusFiles, npmCli, nativeCli } from "./support.mjs";

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

/** SARIF without the fields that name the program. */
function unnamed(sarif) {
  const doc = JSON.parse(sarif);
  for (const r of doc.runs) {
    delete r.tool.driver.name;
    delete r.tool.driver.version;
    delete r.tool.driver.semanticVersion;
    delete r.tool.driver.informationUri;
  }
  return doc;
}

test("--format sarif and human equal the native command's", () => {
  const a = npmCli(["--format", "sarif", ...files]);
  const b = nativeCli(["--format", "sarif", ...files]);
  assert.deepEqual(unnamed(a.stdout), unnamed(b.stdout));
  assert.equal(a.status, b.status);
  const h = npmCli(files);
  const n = nativeCli(["--color", "never", ...files]);
  assert.equal(h.stdout, n.stdout);
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
