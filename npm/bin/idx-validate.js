#!/usr/bin/env node
// `npx idx-validate FILE...`: the native `idx-validate` compiled to
// WebAssembly. The arguments go to the command's own parser and resolution
// inside the module (help, version, formats, defaults and errors are
// the native command's); this file only reads the files it names, at
// offsets, and prints what the command printed. Files only: a directory is
// reported unreadable (the native command walks it).
import { Command, checkFile } from "../node.js";

const command = new Command(process.argv.slice(2));
let exit = command.done();
if (!exit) {
  for (const path of command.inputs()) checkFile(command, path);
  exit = command.finish();
}
process.stderr.write(exit.stderr);
process.stdout.write(exit.stdout);
process.exitCode = exit.status;
command.free();
