//! An input held by JavaScript, read synchronously at offsets: a `File` in
//! a Web Worker (`FileReaderSync` over `File.slice`), a file descriptor in
//! Node (`fs.readSync`). As a `Read + Seek`, the library reads it as it
//! reads a file: through its own fixed buffers, so memory does not grow
//! with the input.

use js_sys::{Function, Uint8Array};
use std::io::{self, Read, Seek, SeekFrom, Write};
use wasm_bindgen::JsValue;

/// `readAt(offset, length) -> Uint8Array` (at most `length` bytes; fewer
/// only at the end).
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
        let want = (buf.len() as u64).min(self.len.saturating_sub(self.pos));
        if want == 0 {
            return Ok(0);
        }
        let got = self
            .read_at
            .call2(
                &JsValue::NULL,
                &JsValue::from_f64(self.pos as f64),
                &JsValue::from_f64(want as f64),
            )
            .map_err(|e| js_error(&e))?;
        let bytes = Uint8Array::from(got);
        // never more than asked, whatever the callback returned
        let n = (bytes.length() as usize).min(want as usize);
        bytes.subarray(0, n as u32).copy_to(&mut buf[..n]);
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
