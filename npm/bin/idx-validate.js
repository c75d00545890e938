#!/usr/bin/env node
// `npx idx-validate FILE...`: the validator's command line over the
// WebAssembly module: the same checks, the same reports and the same exit
// statuses as the native `idx-validate` (0 valid, 1 invalid, 2 unreadable
// input or usage error), for the options below. Files only: a directory is
// reported unreadable (the native command walks it).
import { validateFiles, explain, listRules, ruleUrl, version } from "../node.js";

const FORMATS = ["human", "short", "json", "jsonl", "sarif", "junit", "github"];
const HELP = `Validate IDX files (MNIST and cousins): every spec violation, located exactly

Usage: idx-validate [OPTIONS] FILE...

Options:
      --format <FORMAT>          ${FORMATS.join(", ")} [default: human]
      --select <RULES>           report only these rules (codes, names or prefixes; comma-separated)
      --ignore <RULES>           never report these rules
      --max-decompressed <SIZE>  stop decompressing gzip input past SIZE (0: no limit) [default: 64GiB]
      --max-findings <N>         at most N findings per rule per file (0: all) [default: 10]
      --expect-dtype <TYPE>      the element type the files must have
      --expect-shape <DIMS>      the shape they must have (comma-separated, * for any)
      --pair <IMAGES> <LABELS>   check an image file and its labels together
      --classes <N>              labels must lie in 0..N
      --deny-warnings            warnings fail the run
      --severity <CODE=SEVERITY> change a rule's severity (error, warning or info; comma-separated or
                                 repeated): IDX501=error makes the byte-order warning fail the run
      --expect-range <LO..HI>    every element of an i16 or i32 payload lies in LO..HI: proves a
                                 little-endian payload (an IDX501 error)
      --assume-byte-order <ORDER>
                                 the byte order the writer used (little, big): little reads the
                                 payload little-endian; big vouches for the bytes (no IDX501)
      --explain <RULE>           print a rule's text from the spec
      --list-rules               print every rule
  -V, --version                  print the version
  -h, --help                     print this help

Exit status: 0 every file valid, 1 a file invalid, 2 a file unreadable or a usage error.
Runs the reference idx library compiled to WebAssembly; nothing leaves the machine.
`;

function usage(message) {
  process.stderr.write(`error: ${message}\n\nFor more information, try '--help'.\n`);
  process.exit(2);
}

function parse(argv) {
  const o = { format: "human", files: [], select: [], ignore: [], pairs: [], severity: [] };
  const value = (i, flag) => {
    if (i + 1 >= argv.length) usage(`a value is required for '${flag}'`);
    return argv[i + 1];
  };
  let onlyFiles = false;
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    if (onlyFiles || !a.startsWith("--") && !(a.startsWith("-") && a.length > 1)) {
      o.files.push(a);
      continue;
    }
    let inline;
    if (a.startsWith("--") && a.includes("=")) {
      inline = a.slice(a.indexOf("=") + 1);
      a = a.slice(0, a.indexOf("="));
    }
    const take = () => {
      if (inline !== undefined) return inline;
      const v = value(i, a);
      i += 1;
      return v;
    };
    switch (a) {
      case "--": onlyFiles = true; break;
      case "-h": case "--help": o.help = true; break;
      case "-V": case "--version": o.version = true; break;
      case "--list-rules": o.listRules = true; break;
      case "--explain": o.explain = take(); break;
      case "--format": o.format = take(); break;
      case "--select": o.select.push(...take().split(",")); break;
      case "--ignore": o.ignore.push(...take().split(",")); break;
      case "--max-decompressed": o.maxDecompressed = take(); break;
      case "--max-findings": o.maxFindings = take(); break;
      case "--expect-dtype": o.expectDtype = take(); break;
      case "--expect-shape": o.expectShape = take(); break;
      case "--classes": o.classes = take(); break;
      case "--deny-warnings": o.denyWarnings = true; break;
      case "--severity": o.severity.push(take()); break;
      case "--expect-range": o.expectRange = take(); break;
      case "--assume-byte-order": o.assumeByteOrder = take(); break;
      case "--pair": {
        const images = value(i, a);
        const labels = value(i + 1, a);
        i += 2;
        o.pairs.push([images, labels]);
        break;
      }
      default: usage(`unexpected argument '${a}' found`);
    }
  }
  return o;
}

function count(s, flag) {
  if (!/^\d+$/.test(s)) usage(`invalid value '${s}' for '${flag}': a whole number`);
  return Number(s);
}

const o = parse(process.argv.slice(2));
if (o.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
if (o.version) {
  process.stdout.write(`idx-validate ${version()} (WebAssembly)\n`);
  process.exit(0);
}
if (o.listRules) {
  process.stdout.write(listRules());
  process.exit(0);
}
if (o.explain !== undefined) {
  const text = explain(o.explain);
  if (text === undefined) {
    process.stderr.write(`error: no rule ${JSON.stringify(o.explain)}; see --list-rules\n`);
    process.exit(2);
  }
  process.stdout.write(`${text}\nThe rule's page, with an example and the fix: ${ruleUrl(o.explain)}\n`);
  process.exit(0);
}
if (!FORMATS.includes(o.format)) usage(`invalid value '${o.format}' for '--format <FORMAT>' (one of ${FORMATS.join(", ")})`);
for (const [images, labels] of o.pairs) {
  for (const p of [images, labels]) if (!o.files.includes(p)) o.files.push(p);
}
if (o.files.length === 0) usage("no FILE given (see --help)");
const options = {
  format: o.format,
  select: o.select,
  ignore: o.ignore,
  pairs: o.pairs,
  denyWarnings: !!o.denyWarnings,
};
if (o.maxDecompressed !== undefined) options.maxDecompressed = o.maxDecompressed;
if (o.maxFindings !== undefined) options.maxFindings = count(o.maxFindings, "--max-findings");
if (o.classes !== undefined) options.classes = count(o.classes, "--classes");
if (o.expectDtype !== undefined) options.expectDtype = o.expectDtype;
if (o.expectShape !== undefined) options.expectShape = o.expectShape;
// repeated --severity flags apply in order, as natively
if (o.severity.length) options.severity = o.severity;
if (o.expectRange !== undefined) options.expectRange = o.expectRange;
if (o.assumeByteOrder !== undefined) {
  if (!["little", "big"].includes(o.assumeByteOrder)) {
    usage(`invalid value '${o.assumeByteOrder}' for '--assume-byte-order <ORDER>' (one of little, big)`);
  }
  options.assumeByteOrder = o.assumeByteOrder;
}
let result;
try {
  result = await validateFiles(o.files, options);
} catch (e) {
  usage(e.message ?? String(e));
}
process.stdout.write(result.output);
process.exitCode = result.exitStatus;
