// Conformance adapter (protocol 3 reader) for the idx-data npm package:
// `node reader.js FILE` calls idx.loadBits(FILE) and prints the content
// encoding, or, when its promise rejects, an error document and exits 1;
// `node reader.js --persistent` prints {"protocol": 3}, then answers one
// {"id": N, "file": PATH} request per line, in order, each answer with
// the request's "id".
//
// idx-data parses in a stream's 'readable' handler: what it throws there
// (a short header, a type code it does not know: it reads only u8, i32
// and f32; a typed array too large) is an uncaught exception that ends the
// process, as it would end its user's program (no try/catch around the
// await can catch it), and its promise never settles. That is a crash,
// and the adapter leaves it so.
'use strict';
const path = require('path');
const idx = require(path.join(__dirname, 'node_modules', 'idx-data'));

const arg = process.argv[2];
if (!arg) {
  process.stderr.write('usage: node reader.js FILE | --persistent\n');
  process.exit(2);
}

function content(t) {
  const names = { uint8: 'u8', int32: 'i32', float32: 'f32' };
  const dtype = names[t.type];
  if (!dtype) throw new Error('idx-data returned type ' + t.type);
  let data;
  if (dtype === 'f32') {
    const bits = new Uint32Array(t.data.buffer, t.data.byteOffset, t.data.length);
    data = Array.from(bits, (b) => '"0x' + b.toString(16).padStart(8, '0') + '"');
  } else {
    data = Array.from(t.data, (x) => String(x));
  }
  return '{"dtype": "' + dtype + '", "shape": [' + t.shape.join(', ') + '], "data": [' + data.join(', ') + ']}\n';
}

// An answer line (a JSON object) with the request's id first.
function withId(answer, id) {
  return '{"id": ' + JSON.stringify(id) + ', ' + answer.slice(1);
}

function errorDocument(e) {
  return JSON.stringify({ error: { message: String((e && e.message) || e) } }) + '\n';
}

if (arg === '--persistent') {
  const lines = [];
  let busy = false;
  const pump = async () => {
    if (busy) return;
    busy = true;
    while (lines.length) {
      const req = JSON.parse(lines.shift());
      let answer;
      try {
        answer = content(await idx.loadBits(req.file));
      } catch (e) {
        answer = errorDocument(e);
      }
      process.stdout.write(withId(answer, req.id));
    }
    busy = false;
  };
  require('readline').createInterface({ input: process.stdin }).on('line', (l) => {
    lines.push(l);
    pump();
  });
  process.stdout.write('{"protocol": 3}\n');
} else {
  idx.loadBits(arg).then(
    (t) => process.stdout.write(content(t)),
    (e) => {
      process.stdout.write(errorDocument(e));
      process.exitCode = 1;
    },
  );
}
