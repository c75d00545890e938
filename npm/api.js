// The package's API over the WebAssembly module, for every environment:
// index.js (browsers, bundlers) and node.js only differ in how the module's
// bytes are loaded. No check is made here: the module is the reference
// `idx` library with idx-validate's checks and renderers.
import { Checker, explain as explainRule, listRules as rulesTable, ruleUrl as ruleUrlOf, rules as rulesJson, version as libVersion } from "./idx_wasm.js";

/** The name reports give to bytes passed without one (as Python's idxkit). */
export const BYTES_NAME = "<bytes>";

function bytesOf(input) {
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  return null;
}

function isStream(input) {
  return input != null && typeof input.getReader === "function";
}

/**
 * Feeds one input to a checker: bytes at once, a ReadableStream chunk by
 * chunk (in bounded memory, gzip too: the library's validator decompresses
 * the chunks as they come, within the limit).
 */
export async function feed(checker, input, name) {
  const bytes = bytesOf(input);
  if (bytes) {
    checker.checkBytes(name, bytes);
    return;
  }
  if (!isStream(input)) {
    throw new TypeError("validate: a Uint8Array, an ArrayBuffer, a typed array or a ReadableStream of bytes");
  }
  const reader = input.getReader();
  checker.begin(name);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const chunk = bytesOf(value);
      if (!chunk) throw new TypeError("validate: the stream must yield bytes (Uint8Array chunks)");
      checker.push(chunk);
    }
  } finally {
    reader.releaseLock();
  }
  checker.end();
}

function optionsJson(options) {
  const { name: _name, format: _format, ...rest } = options ?? {};
  return JSON.stringify(rest);
}

/**
 * Validates one input; resolves to the report of `idx-validate --format
 * json` (or, with `options.format`, that format's text).
 */
export async function validate(input, options = {}) {
  const checker = new Checker(optionsJson(options));
  try {
    await feed(checker, input, options.name ?? BYTES_NAME);
    const text = checker.render(options.format ?? "json");
    return options.format && options.format !== "json" ? text : JSON.parse(text);
  } finally {
    checker.free();
  }
}

/** The spec's text of a rule (code or name), or undefined. */
export function explain(rule) {
  return explainRule(rule);
}

/** The address of a rule's page in the documentation, or undefined. */
export function ruleUrl(rule) {
  return ruleUrlOf(rule);
}

/** Every rule: [{code, name, severity, title}]. */
export function rules() {
  return JSON.parse(rulesJson());
}

/** The rule table of `idx-validate --list-rules`. */
export function listRules() {
  return rulesTable();
}

/** The version of the idx library inside. */
export function version() {
  return libVersion();
}

export { Checker };
