//! The file system of the npm command, as JavaScript callbacks: what the
//! command's own configuration discovery (`idx_validate::config`) and
//! directory walk (`idx_validate::walk::expand_in`) ask for, answered by
//! Node. The decisions (which file, which entry) stay the command's; these
//! only stat, list and read.
//!
//! The host object's functions, each returning its value or, when the
//! system refuses, `{error, code}` (the message as the native command
//! words it, and Node's error code):
//!
//! - `cwd()`: the current directory;
//! - `stat(path)`: `{kind, id}`, symbolic links followed (`kind`: `dir`,
//!   `file`, `fifo`, `socket`, `block`, `char` or `other`; `id`: the same
//!   text for the same file, e.g. `dev:ino`);
//! - `readDir(path)`: the entries' names;
//! - `read(path)`: the file's bytes (a `Uint8Array`);
//! - `realpath(path)`: the absolute path, links resolved;
//! - `magic(path)`: the first 4 bytes, or `null`;
//! - `env(name)`: the environment variable `name`, or `null` if unset
//!   (`XDG_CONFIG_HOME`, `GIT_CONFIG_GLOBAL`, `GIT_CONFIG_SYSTEM`: where git's
//!   global excludes file is);
//! - `home()`: the home directory as Rust's `std::env::home_dir` finds it
//!   (`HOME` if set and not empty, else the user's entry in the password
//!   database), or `null`.

use idx_validate::config::ConfigFiles;
use idx_validate::walk::{Kind, Stat, WalkFs};
use js_sys::{Function, Reflect, Uint8Array};
use std::io;
use std::path::{Path, PathBuf};
use wasm_bindgen::{JsCast, JsValue};

/// A host object (see the module's documentation), or none: then nothing
/// is found, and every path is a file to read.
#[derive(Debug, Clone)]
pub struct Host(Option<JsValue>);

fn get(o: &JsValue, key: &str) -> Option<JsValue> {
    Reflect::get(o, &JsValue::from_str(key))
        .ok()
        .filter(|v| !v.is_undefined() && !v.is_null())
}

impl Host {
    /// The host `obj` (`undefined`: none).
    pub fn new(obj: JsValue) -> Host {
        Host(Some(obj).filter(|o| o.is_object()))
    }

    /// Calls the host's function `name` on `path`: its value, or its
    /// `{error, code}` as an I/O error.
    fn call(&self, name: &str, path: Option<&Path>) -> io::Result<JsValue> {
        let arg = path.map_or(JsValue::UNDEFINED, |p| {
            JsValue::from_str(&p.to_string_lossy())
        });
        self.call_with(name, &arg)
    }

    /// Calls the host's function `name` on `arg` ([`Host::call`]).
    fn call_with(&self, name: &str, arg: &JsValue) -> io::Result<JsValue> {
        let no = || io::Error::new(io::ErrorKind::Unsupported, "no file system");
        let host = self.0.as_ref().ok_or_else(no)?;
        let f: Function = get(host, name)
            .ok_or_else(no)?
            .dyn_into()
            .map_err(|_| no())?;
        let v = f
            .call1(host, arg)
            .map_err(|e| io::Error::other(format!("{name}: {e:?}")))?;
        if let Some(err) = get(&v, "error").filter(|_| v.is_object()) {
            let kind = match get(&v, "code").and_then(|c| c.as_string()).as_deref() {
                Some("ENOENT") => io::ErrorKind::NotFound,
                Some("EACCES" | "EPERM") => io::ErrorKind::PermissionDenied,
                _ => io::ErrorKind::Other,
            };
            let text = err.as_string().unwrap_or_else(|| format!("{err:?}"));
            return Err(io::Error::new(kind, text));
        }
        Ok(v)
    }

    fn string(&self, name: &str, path: Option<&Path>) -> io::Result<String> {
        self.call(name, path)?
            .as_string()
            .ok_or_else(|| io::Error::other(format!("{name}: not a string")))
    }
}

impl ConfigFiles for Host {
    fn current_dir(&self) -> Option<PathBuf> {
        self.string("cwd", None).ok().map(PathBuf::from)
    }
    fn is_file(&self, path: &Path) -> bool {
        self.stat(path).is_ok_and(|s| s.kind == Kind::File)
    }
    fn read_to_string(&self, path: &Path) -> io::Result<String> {
        let bytes = WalkFs::read(self, path)?;
        // as std::fs::read_to_string says it
        String::from_utf8(bytes).map_err(|_| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                "stream did not contain valid UTF-8",
            )
        })
    }
}

impl WalkFs for Host {
    fn stat(&self, path: &Path) -> io::Result<Stat> {
        let v = self.call("stat", Some(path))?;
        let kind = match get(&v, "kind").and_then(|k| k.as_string()).as_deref() {
            Some("dir") => Kind::Dir,
            Some("file") => Kind::File,
            Some("fifo") => Kind::Fifo,
            Some("socket") => Kind::Socket,
            Some("block") => Kind::BlockDevice,
            Some("char") => Kind::CharDevice,
            _ => Kind::Other,
        };
        let id = get(&v, "id")
            .and_then(|i| i.as_string())
            .unwrap_or_default();
        Ok(Stat { kind, id })
    }
    fn read_dir(&self, path: &Path) -> io::Result<Vec<String>> {
        let v = self.call("readDir", Some(path))?;
        let names: js_sys::Array = v
            .dyn_into()
            .map_err(|_| io::Error::other("readDir: not an array"))?;
        Ok(names.iter().filter_map(|n| n.as_string()).collect())
    }
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        let v = self.call("read", Some(path))?;
        Ok(v.dyn_into::<Uint8Array>()
            .map_err(|_| io::Error::other("read: not a Uint8Array"))?
            .to_vec())
    }
    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        self.string("realpath", Some(path)).map(PathBuf::from)
    }
    fn magic(&self, path: &Path) -> Option<[u8; 4]> {
        let v = self.call("magic", Some(path)).ok()?;
        let b = v.dyn_into::<Uint8Array>().ok()?.to_vec();
        b.try_into().ok()
    }
    fn var(&self, name: &str) -> Option<String> {
        self.call_with("env", &JsValue::from_str(name))
            .ok()?
            .as_string()
    }
    fn home_dir(&self) -> Option<PathBuf> {
        self.string("home", None).ok().map(PathBuf::from)
    }
    fn current_dir(&self) -> Option<PathBuf> {
        ConfigFiles::current_dir(self)
    }
}
