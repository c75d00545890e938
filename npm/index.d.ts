// Types of the idx-validate package (browsers, bundlers and Node 18+).

/**
 * Options of a run: the command line's flags, by their names in camelCase
 * (or as written, `"max-decompressed"`), read by the command's own parser:
 * `true` is a switch, a list repeats the flag, an object gives `KEY=VALUE`
 * values. Flags that write files (`fix`, `outputFile`...) are refused.
 */
export interface Options {
  /** Report only these rules: codes (`IDX203`), names (`trailing-bytes`) or code prefixes (`IDX5`). */
  select?: string[];
  /** Never report these rules. */
  ignore?: string[];
  /** Stop decompressing gzip input past this size (`"4GiB"` or bytes; 0: no limit). Default 64 GiB. */
  maxDecompressed?: string | number;
  /** At most this many findings per rule per file (0: all). Default 10. */
  maxFindings?: number;
  /** Warnings fail the run. */
  denyWarnings?: boolean;
  /** Labels must lie in 0..classes. */
  classes?: number;
  /** Image and label files checked together, by name. */
  pair?: [images: string, labels: string][];
  /** The element type the input must have. */
  expectDtype?: "u8" | "i8" | "i16" | "i32" | "f32" | "f64";
  /** The shape it must have: `"*,28,28"`. */
  expectShape?: string;
  /**
   * Rule severity overrides, as the configuration file's `severity` table
   * (`{ IDX501: "error" }`), as `--severity`'s text (`"IDX501=error"`,
   * comma-separated), or a list of such texts applied in order (repeated
   * flags). `IDX501=error` makes the byte-order test's warning fail the
   * file; errors the bytes prove cannot be changed.
   */
  severity?: Record<string, Severity> | string | string[];
  /**
   * The byte order the writer used (`--assume-byte-order`): `"little"`
   * reads the payload little-endian (an IDX501 warning only when it reads
   * big-endian); `"big"` vouches for the bytes (no IDX501).
   */
  assumeByteOrder?: "little" | "big";
  /**
   * Every element of an i16 or i32 payload lies in `"LO..HI"` (inclusive,
   * `--expect-range`): a payload only its little-endian reading keeps in
   * range is proved little-endian (an IDX501 error).
   */
  expectRange?: string;
}

export type Severity = "error" | "warning" | "info";

/** One edit of a fix. */
export type Edit =
  | { kind: "replace"; offset: number; bytes: string }
  | { kind: "delete"; offset: number; length: number }
  | { kind: "swap"; offset: number; length: number; element_size: number };

/** One finding, as `idx-validate --format json` writes it. */
export interface Finding {
  rule: string;
  severity: Severity;
  offset: number;
  length: number;
  message: string;
  expected: string | null;
  found: string | null;
  hint: string | null;
  related?: { path: string; offset: number; length: number };
  fix?: { applicability: "safe" | "unsafe"; description: string; edits: Edit[] };
  byte_order?: Record<string, number>;
}

/** One input's part of the report. */
export interface FileReport {
  path: string;
  path_bytes?: string;
  verdict: "valid" | "invalid" | "unreadable";
  compression: "gzip" | null;
  header: { dtype: string; shape: number[]; header_len: number; payload_len: number } | null;
  stream_len?: number;
  findings: Finding[];
  suppressed?: Record<string, number>;
  error?: string;
}

/** The report of `idx-validate --format json` (schema version 1). */
export interface Report {
  version: 1;
  files: FileReport[];
  summary: {
    files: number;
    valid: number;
    invalid: number;
    unreadable: number;
    errors: number;
    warnings: number;
    infos: number;
    fixable?: number;
    unsafe_fixable?: number;
    fixed?: number;
    repair_failed?: number;
  };
}

export type Format = "human" | "short" | "json" | "jsonl" | "sarif" | "junit" | "github";

/** Bytes, or a stream of byte chunks (a `fetch` body, `File.stream()`, `Readable.toWeb(...)`). */
export type Input = Uint8Array | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array>;

/**
 * Validates one input. Resolves to the JSON report, or with `format` (not
 * `"json"`) to that format's text. `name` is the file name the report and
 * the name rules see (default `"<bytes>"`).
 */
export function validate(input: Input, options?: Options & { name?: string }): Promise<Report>;
export function validate(input: Input, options: Options & { name?: string; format: Exclude<Format, "json"> }): Promise<string>;

/** The spec's text of a rule, by code or name (`idx-validate --explain`). */
export function explain(rule: string): string | undefined | Promise<string | undefined>;
/** The address of a rule's page in the documentation, by code or name. */
export function ruleUrl(rule: string): string | undefined | Promise<string | undefined>;
/** Every rule. */
export function rules(): { code: string; name: string; severity: Severity; title: string }[] | Promise<{ code: string; name: string; severity: Severity; title: string }[]>;
/** The table of `idx-validate --list-rules`. */
export function listRules(): string | Promise<string>;
/** Loads the WebAssembly module (browsers; a no-op in Node, where it loads on import). */
export function load(module?: BufferSource | URL | Response): Promise<void>;
/** The name of bytes passed without one. */
export const BYTES_NAME: "<bytes>";

/**
 * The `idx-validate` command on its arguments (without the program name):
 * `done()` is what it printed without checking (help, a usage error...),
 * else check each of `inputs()` and `finish()`.
 */
export class Command {
  /** `host`: the file system the command finds its configuration and walks directories in (node.js's `host`); without it, none is found and every path is a file. */
  constructor(argv: string[], host?: Host);
  done(): Exit | undefined;
  /** The inputs to read, in order; `stdin`: standard input (`-`), pushed with beginStdin/push/end. */
  inputs(): { path: string; stdin: boolean }[];
  checkSource(name: string, size: number, readAt: (offset: number, target: Uint8Array) => number): void;
  unreadable(name: string, why: string): void;
  beginStdin(): void;
  push(chunk: Uint8Array): void;
  end(): void;
  finish(): Exit;
  free(): void;
}
/** A refusal of the file system: the message as the native command words it, and Node's code. */
export interface HostError {
  error: string;
  code: string;
}
/** What the command asks of a file system (crates/idx-wasm/src/host.rs). */
export interface Host {
  cwd(): string;
  stat(path: string): { kind: "dir" | "file" | "fifo" | "socket" | "block" | "char" | "other"; id: string } | HostError;
  readDir(path: string): string[] | HostError;
  read(path: string): Uint8Array | HostError;
  realpath(path: string): string | HostError;
  magic(path: string): Uint8Array | null;
  /** An environment variable (null: unset): where git's global excludes file is. */
  env?(name: string): string | null;
  /** The home directory as Rust's std::env::home_dir finds it (HOME if set and not empty, else the password database's), or null. */
  home?(): string | null;
}
/** Node only: Node's file system as a Host. */
export const host: Host;
/** What a run of the command printed and exits with. */
export interface Exit {
  readonly stdout: Uint8Array;
  readonly stderr: Uint8Array;
  readonly status: 0 | 1 | 2;
}

/** Node only: validates files by path as one run of the command. */
export function validateFiles(paths: string[], options?: Options & { format?: Format }): Promise<{ output: string; exitStatus: 0 | 1 | 2 }>;
