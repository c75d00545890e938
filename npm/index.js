// Browsers and bundlers: the module is fetched beside this file
// (`new URL("./idx_wasm_bg.wasm", import.meta.url)`, which bundlers follow).
import init from "./idx_wasm.js";
import * as api from "./api.js";

let ready;
/** Loads the WebAssembly module (once); every function below awaits it. */
export function load(module) {
  ready ??= init(module ? { module_or_path: module } : undefined);
  return ready;
}

export async function validate(input, options) {
  await load();
  return api.validate(input, options);
}
export async function explain(rule) {
  await load();
  return api.explain(rule);
}
export async function ruleUrl(rule) {
  await load();
  return api.ruleUrl(rule);
}
export async function rules() {
  await load();
  return api.rules();
}
export async function listRules() {
  await load();
  return api.listRules();
}
export { BYTES_NAME } from "./api.js";
