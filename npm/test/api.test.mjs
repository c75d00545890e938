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

// Correct big-endian files that once read "certainly" little-endian, an
// IDX501 error (the time-zone, left-justified and packed-pixel recipes of
// the byte-order issue, built here as test_round_trip.py builds them):
// valid, with at most IDX501's warning (the transitions and the samples
// have none now; pixels packed 0x00RRGGBB are the same bytes as another
// picture packed 0xBBGGRR00 byte-swapped, spec 6.1, and this one warns),
// and invalid under IDX501=error exactly when the warning is there.
function idx(code, dims, elements, size, put) {
  const b = new Uint8Array(4 + 4 * dims.length + elements.length * size);
  const v = new DataView(b.buffer);
  b.set([0, 0, code, dims.length]);
  dims.forEach((d, k) => v.setUint32(4 + 4 * k, d, false));
  const at = 4 + 4 * dims.length;
  elements.forEach((x, k) => put(v, at + k * size, x));
  return b;
}
const i32 = (dims, xs) => idx(0x0c, dims, xs, 4, (v, at, x) => v.setInt32(at, x, false));
const i16 = (dims, xs) => idx(0x0b, dims, xs, 2, (v, at, x) => v.setInt16(at, x, false));

function sydneyTransitions() {
  // Australia/Sydney: the war-time changes, then daylight saving from the
  // first Sunday of October (2:00 standard time, UTC+10) to the first
  // Sunday of April (3:00 daylight time, UTC+11), 1971 to 2037
  const at = (y, m, d, h, mi, utcOffset) => Date.UTC(y, m - 1, d, h, mi) / 1000 - utcOffset * 3600;
  const firstSunday = (y, m) => 1 + ((7 - new Date(Date.UTC(y, m - 1, 1)).getUTCDay()) % 7);
  const t = [
    at(1917, 1, 1, 0, 1, 10), at(1917, 3, 25, 2, 0, 11), at(1942, 1, 1, 2, 0, 10), at(1942, 3, 29, 2, 0, 11),
    at(1942, 9, 27, 2, 0, 10), at(1943, 3, 28, 2, 0, 11), at(1943, 10, 3, 2, 0, 10), at(1944, 3, 26, 2, 0, 11),
  ];
  for (let y = 1971; y < 2038; y++) {
    if (y > 1971) t.push(at(y, 4, firstSunday(y, 4), 3, 0, 11));
    t.push(at(y, 10, firstSunday(y, 10), 2, 0, 10));
  }
  return i32([t.length], t);
}

function leftJustified(bits, n = 4096) {
  // a sine and noise (a sum of 12 uniforms from a fixed LCG), left-justified
  let s = 40;
  const uniform = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const peak = 2 ** (bits - 1) - 1;
  const xs = [];
  for (let t = 0; t < n; t++) {
    let noise = -6;
    for (let k = 0; k < 12; k++) noise += uniform();
    const x = Math.round(peak * 0.9 * Math.sin((2 * Math.PI * t) / 97) + 3 * noise);
    xs.push(Math.max(-peak - 1, Math.min(peak, x)) << (16 - bits));
  }
  return i16([n], xs);
}

function packedPixels(h = 64, w = 96) {
  const xs = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const r = Math.floor((255 * x) / (w - 1));
      const g = Math.floor((255 * y) / (h - 1));
      const b = Math.floor(127 + 127 * Math.sin(x / 9) * Math.cos(y / 7));
      xs.push((r << 16) | (g << 8) | b);
    }
  }
  return i32([h, w], xs);
}

test("correct files that once looked swapped are valid with at most the warning; IDX501=error fails them only when it warns", async () => {
  const recipes = {
    "time-zone transitions": sydneyTransitions(),
    "10-bit samples": leftJustified(10),
    "9-bit samples": leftJustified(9),
    "0x00RRGGBB pixels": packedPixels(),
  };
  for (const [name, bytes] of Object.entries(recipes)) {
    const r = (await api.validate(bytes, { name })).files[0];
    assert.equal(r.verdict, "valid", `${name}: ${JSON.stringify(r.findings)}`);
    assert.ok(r.findings.every((f) => f.severity !== "error"), name);
    const warnings = r.findings.filter((f) => f.rule === "IDX501");
    assert.equal(warnings.length, name === "0x00RRGGBB pixels" ? 1 : 0, `${name}: ${JSON.stringify(warnings)}`);
    for (const w of warnings) assert.match(w.message, /a statistical test, not a proof/);
    const strict = (await api.validate(bytes, { name, severity: { IDX501: "error" } })).files[0];
    assert.equal(strict.verdict, warnings.length ? "invalid" : "valid", name);
  }
});
