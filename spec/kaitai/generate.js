// Generates the Python parser of spec/idx.ksy with the Kaitai Struct
// compiler (the npm package's JavaScript build, version pinned in
// package.json / package-lock.json).
//
//   node generate.js            write crates/idx-conformance/adapters/kaitai/idx.py
//   node generate.js --check    exit 1 if the committed copy differs
//   node generate.js LANG DIR   write the parser for another target language
'use strict';
const fs = require('fs');
const path = require('path');
const yaml = require('js-yaml');
const KaitaiStructCompiler = require('kaitai-struct-compiler');

const root = path.resolve(__dirname, '..', '..');
const ksyPath = path.join(root, 'spec', 'idx.ksy');
const committed = path.join(root, 'crates', 'idx-conformance', 'adapters', 'kaitai');

async function compile(lang) {
  const ksy = yaml.load(fs.readFileSync(ksyPath, 'utf8'));
  // No imports in idx.ksy, so no importer; debug mode off.
  return KaitaiStructCompiler.compile(lang, ksy, null, false);
}

async function main() {
  const args = process.argv.slice(2);
  const check = args[0] === '--check';
  const lang = check || args.length === 0 ? 'python' : args[0];
  const dir = check || args.length === 0 ? committed : path.resolve(args[1] || '.');
  const files = await compile(lang);
  let stale = 0;
  for (const [name, text] of Object.entries(files)) {
    const out = path.join(dir, name);
    if (check) {
      const have = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : null;
      if (have !== text) {
        console.error(`${path.relative(root, out)} differs from what spec/idx.ksy generates; run node spec/kaitai/generate.js`);
        stale += 1;
      }
    } else {
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, text);
      console.log(`wrote ${path.relative(process.cwd(), out)}`);
    }
  }
  if (check && stale === 0) {
    console.log(`kaitai-struct-compiler ${KaitaiStructCompiler.version}: ${Object.keys(files).join(', ')} up to date`);
  }
  process.exit(stale ? 1 : 0);
}

main().catch((e) => {
  console.error(e && e.toString ? e.toString() : e);
  process.exit(2);
});
