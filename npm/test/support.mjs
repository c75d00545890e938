// What the package's tests share: where the installed package, the native
// command and the corpus are (set by scripts/test-web.sh), and running a
// command to {status, stdout, stderr}.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

export const root = resolve(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "../..");

function required(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set (scripts/test-web.sh sets it)`);
  return v;
}

/** The package as installed from its tarball. */
export const pkg = () => resolve(required("IDX_VALIDATE_PACKAGE"));
/** The native idx-validate binary. */
export const native = () => resolve(required("IDX_VALIDATE_NATIVE"));

/** Every corpus input (manifests and documents left out), relative to the root, sorted. */
export function corpusFiles() {
  const out = [];
  const walk = (dir) => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (!/\.(json|md|png|html)$/.test(e.name)) out.push(p);
    }
  };
  for (const d of ["valid", "invalid", "implementation-defined", "datasets"]) walk(`corpus/${d}`);
  return out.sort();
}

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: "utf8", maxBuffer: 1 << 28, ...opts });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function npmCli(args, opts) {
  return run(process.execPath, [join(pkg(), "bin/idx-validate.js"), ...args], opts);
}

export function nativeCli(args, opts) {
  // --isolated: no configuration file (the repository has none; the npm
  // command finds the same as the native one, see fs.test.mjs)
  return run(native(), ["--isolated", ...args], opts);
}

export const sizeOf = (p) => statSync(join(root, p)).size;
