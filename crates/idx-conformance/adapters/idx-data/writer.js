// Conformance adapter (protocol 3 writer) for the idx-data npm package:
// `node writer.js` reads the content encoding on stdin, builds the typed
// array of its type (floats from their bit patterns), calls
// idx.writeToStream(data, shape, stream) into memory and writes the bytes
// to stdout; when idx-data throws (it writes only Uint8Array, Int32Array
// and Float32Array), it prints an error document and exits 1.
// `node writer.js --persistent` prints {"protocol": 3}, then answers one
// {"id": N, "content": ...} request per line with {"id": N, "idx": HEX} or
// the error document (with the "id").
'use strict';
const path = require('path');
const idx = require(path.join(__dirname, 'node_modules', 'idx-data'));

const ARRAYS = {
  u8: Uint8Array, i8: Int8Array, i16: Int16Array, i32: Int32Array, f32: Float32Array, f64: Float64Array,
};

function typed(c) {
  const n = c.data.length;
  if (c.dtype === 'f32') {
    const bits = Uint32Array.from(c.data, (s) => Number(BigInt(s)));
    return new Float32Array(bits.buffer);
  }
  if (c.dtype === 'f64') {
    const bits = BigUint64Array.from(c.data, (s) => BigInt(s));
    return new Float64Array(bits.buffer);
  }
  const a = new ARRAYS[c.dtype](n);
  c.data.forEach((x, i) => { a[i] = x; });
  return a;
}

function write(c) {
  const out = [];
  idx.writeToStream(typed(c), c.shape, { write: (b) => out.push(Buffer.from(b)) });
  return Buffer.concat(out);
}

function errorDocument(e) {
  return JSON.stringify({ error: { message: String((e && e.message) || e) } }) + '\n';
}

if (process.argv[2] === '--persistent') {
  require('readline').createInterface({ input: process.stdin }).on('line', (l) => {
    const req = JSON.parse(l);
    let answer;
    try {
      answer = { id: req.id, idx: write(req.content).toString('hex') };
    } catch (e) {
      answer = { id: req.id, error: { message: String((e && e.message) || e) } };
    }
    process.stdout.write(JSON.stringify(answer) + '\n');
  });
  process.stdout.write('{"protocol": 3}\n');
} else {
  const chunks = [];
  process.stdin.on('data', (d) => chunks.push(d));
  process.stdin.on('end', () => {
    let bytes;
    try {
      bytes = write(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    } catch (e) {
      process.stdout.write(errorDocument(e));
      process.exitCode = 1;
      return;
    }
    process.stdout.write(bytes);
  });
}
