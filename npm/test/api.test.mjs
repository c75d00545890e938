// The JavaScript API: validate(bytes) and validate(ReadableStream) give the
// command's report for every corpus file, whatever the stream's chunking.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { corpusFiles, npmCli, pkg, root } from "./support.mjs";

const api = await import(join(pkg(), "node.js"));
const files = corpusFiles();

function streamOf(bytes, size) {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  }, { highWaterMark: 0 });
}

test("validate(bytes) and validate(stream) give the command's report of each corpus file", async () => {
  let n = 0;
  for (const f of files) {
    const bytes = readFileSync(join(root, f));
    const want = JSON.parse(npmCli(["--format", "json", f]).stdout).files[0];
    const got = (await api.validate(bytes, { name: f })).files[0];
    assert.deepEqual(got, want, f);
    for (const size of [1, 7, 65536]) {
      if (size === 1 && bytes.length > 4096) continue; // a byte at a time: small files
      const s = (await api.validate(streamOf(bytes, size), { name: f })).files[0];
      assert.deepEqual(s, want, `${f} in chunks of ${size}`);
    }
    n++;
  }
  assert.equal(n, files.length);
});

test("an ArrayBuffer, a typed array view and a format", async () => {
  const bytes = readFileSync(join(root, files[0]));
  const a = await api.validate(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  assert.equal(a.files[0].path, "<bytes>");
  const h = await api.validate(new DataView(bytes.buffer, bytes.byteOffset, bytes.length), { format: "human" });
  assert.match(h, /1 file checked/);
  await assert.rejects(api.validate("not bytes"), TypeError);
  await assert.rejects(api.validate(bytes, { selct: ["IDX2"] }), /unknown key/);
});

test("explain, rules and the rule table", () => {
  assert.match(api.explain("IDX203"), /^### IDX203 /);
  assert.equal(api.explain("IDX999"), undefined);
  const rules = api.rules();
  assert.ok(rules.some((r) => r.code === "IDX101" && r.severity === "error"));
  assert.match(api.listRules(), /IDX203/);
});

test("severity, assumeByteOrder and expectRange: the command line's, by their JSON names", async () => {
  const f = files.find((p) => p.includes("/impl-little-endian-f32-one-picture")) ?? files.find((p) => p.includes("/impl-little-endian-f32"));
  const bytes = readFileSync(join(root, f));
  const byDefault = (await api.validate(bytes, { name: f })).files[0];
  // no error (the byte-order test's warning, and a note on what reading it big-endian gives): valid
  assert.equal(byDefault.verdict, "valid");
  assert.ok(byDefault.findings.every((x) => x.severity !== "error"), JSON.stringify(byDefault.findings.map((x) => x.rule)));
  const warning = byDefault.findings.find((x) => x.rule === "IDX501");
  assert.ok(warning, "no IDX501");
  assert.match(warning.message, /score .* bits/);
  for (const severity of [{ IDX501: "error" }, { "likely-little-endian": "error" }, "IDX501=error", ["IDX501=error"]]) {
    const strict = (await api.validate(bytes, { name: f, severity })).files[0];
    assert.equal(strict.verdict, "invalid", JSON.stringify(severity));
    const error = strict.findings.find((x) => x.rule === "IDX501");
    assert.equal(error.severity, "error");
    // the same finding otherwise: its message and its score
    assert.equal(error.message, warning.message);
    assert.deepEqual(error.byte_order, warning.byte_order);
  }
  const stated = await api.validate(bytes, { name: f, assumeByteOrder: "little", severity: { IDX501: "error" } });
  assert.deepEqual(stated, JSON.parse(npmCli(["--format", "json", "--assume-byte-order", "little", "--severity", "IDX501=error", f]).stdout));
  await assert.rejects(api.validate(bytes, { severity: { IDX101: "warning" } }), /cannot be changed/);
  await assert.rejects(api.validate(bytes, { assumeByteOrder: "middle" }), /assumeByteOrder/);
  await assert.rejects(api.validate(bytes, { expectRange: "9..0" }), /expectRange/);
});
