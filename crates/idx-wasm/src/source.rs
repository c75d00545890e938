//! An input held by JavaScript, read synchronously at offsets: a `File` in
//! a Web Worker (`FileReaderSync` over `File.slice`), a file descriptor in
//! Node (`fs.readSync`). As a `Read + Seek`, the library reads it as it
//! reads a file: through its own fixed buffers, so memory does not grow
//! with the input.

use js_sys::{Function, Uint8Array};
use std::io::{self, Read, Seek, SeekFrom, Write};
use wasm_bindgen::{JsCast, JsValue};

/// `readAt(offset, target: Uint8Array) -> number`: reads the bytes at
/// `offset` into `target` and returns how many it read (as many as fit,
/// fewer only at the end). `target` is a view of the library's own buffer
/// in the module's memory, so a Node `fs.readSync` fills it with no copy
/// of its own; it is valid only during the call.
#[derive(Debug)]
pub struct JsSource {
    read_at: Function,
    len: u64,
    pos: u64,
}

fn js_error(e: &JsValue) -> io::Error {
    let text = js_sys::Error::from(e.clone())
        .message()
        .as_string()
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the source's read failed".into());
    io::Error::other(text)
}

impl JsSource {
    /// A source of `len` bytes.
    pub fn new(read_at: Function, len: u64) -> Self {
        JsSource {
            read_at,
            len,
            pos: 0,
        }
    }
}

impl Read for JsSource {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let want = (buf.len() as u64).min(self.len.saturating_sub(self.pos)) as usize;
        if want == 0 {
            return Ok(0);
        }
        // The view of `buf` that JavaScript writes into: the module's memory
        // does not grow during the call (JavaScript allocates none of it),
        // so the view stays valid until the call returns.
        let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
        let target = Uint8Array::new_with_byte_offset_and_length(
            &memory.buffer(),
            buf.as_mut_ptr() as usize as u32,
            want as u32,
        );
        let got = self
            .read_at
            .call2(&JsValue::NULL, &JsValue::from_f64(self.pos as f64), &target)
            .map_err(|e| js_error(&e))?;
        let n = got
            .as_f64()
            .filter(|n| n.fract() == 0.0 && (0.0..=want as f64).contains(n))
            .ok_or_else(|| {
                io::Error::other(format!(
                    "readAt returned {got:?}, not a count of bytes from 0 to {want}"
                ))
            })? as usize;
        self.pos += n as u64;
        Ok(n)
    }
}

impl Seek for JsSource {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let pos = match to {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::End(d) => self.len.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        self.pos = pos.ok_or_else(|| io::Error::other("seek before the start"))?;
        Ok(self.pos)
    }
}

/// An output handed to JavaScript chunk by chunk: `write(Uint8Array)` (a
/// copy: the callback may keep it, e.g. as a part of a `Blob`).
#[derive(Debug)]
pub struct JsSink {
    write: Function,
}

impl JsSink {
    /// A sink calling `write` with each chunk.
    pub fn new(write: Function) -> Self {
        JsSink { write }
    }
}

impl Write for JsSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write
            .call1(&JsValue::NULL, &Uint8Array::from(buf))
            .map_err(|e| js_error(&e))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
