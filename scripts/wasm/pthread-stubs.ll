; The POSIX thread functions the standard library of wasm32-wasip1 links
; against but Debian's wasi-libc (2022) lacks; newer wasi-libc (rustup's
; self-contained one) has the same stubs. WASI preview 1 has no threads:
; creating one fails with EAGAIN (6), so std::thread::Builder::spawn returns
; an error and the library's parallel reader decodes on the calling thread.
; Built with `llc-22 -filetype=obj` by scripts/wasm/test-wasip1.sh.
target triple = "wasm32-unknown-wasi"

define i32 @pthread_create(ptr %thread, ptr %attr, ptr %start, ptr %arg) {
  ret i32 6
}
define i32 @pthread_join(i32 %thread, ptr %result) {
  ret i32 58
}
define i32 @pthread_detach(i32 %thread) {
  ret i32 58
}
define i32 @pthread_attr_init(ptr %attr) {
  ret i32 0
}
define i32 @pthread_attr_destroy(ptr %attr) {
  ret i32 0
}
define i32 @pthread_attr_setstacksize(ptr %attr, i32 %size) {
  ret i32 0
}

; Not a thread function: realpath(3), which std::fs::canonicalize calls and
; this wasi-libc also lacks; it fails (returns NULL) as for a missing file.
define ptr @realpath(ptr %path, ptr %resolved) {
  ret ptr null
}
