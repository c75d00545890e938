#!/usr/bin/env node
// `npx idx-validate PATH...`: the native `idx-validate` compiled to
// WebAssembly. The arguments go to the command's own parser and resolution
// inside the module (help, version, formats, defaults and errors are
// the native command's), which finds and reads the configuration file and
// walks directories through `host` (Node's file system: stat, list, read);
// this file only reads the inputs the module names, files at offsets and
// standard input in chunks, and prints what the command printed.
import { Command, checkFile, checkStdin, host } from "../node.js";

const command = new Command(process.argv.slice(2), host);
let exit = command.done();
if (!exit) {
  for (const input of command.inputs()) {
    if (input.stdin) checkStdin(command);
    else checkFile(command, input.path);
  }
  exit = command.finish();
}
process.stderr.write(exit.stderr);
process.stdout.write(exit.stdout);
process.exitCode = exit.status;
command.free();
