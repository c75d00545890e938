//! `idx dump`: the content JSON, streamed (the runner's reference reader).

use super::{fail, open_validated};
use idx_cli::input;
use idx_io::ExitStatus;
use std::io::Write;
use std::path::Path;

pub(super) fn dump(path: &Path, error_document: bool, opts: idx::ReadOptions) -> ExitStatus {
    let (mut input, report) = match open_validated(path, opts) {
        Ok(v) => v,
        Err(status) => return status,
    };
    let header = report.header.clone().filter(|_| report.is_valid());
    let Some(h) = header else {
        if error_document {
            let e = report.errors().next();
            let _ = writeln!(
                std::io::stdout().lock(),
                "{}",
                idx_content::protocol::error_document(
                    e.map(|f| f.rule.code()),
                    e.map(|f| f.offset),
                    e.map_or("", |f| f.message.as_str()),
                )
            );
        } else {
            eprint!("{}", input::render_errors(&input.name, &report));
        }
        return ExitStatus::from(1);
    };
    eprint!("{}", input::render_byte_order_warning(&input.name, &report));
    let name = input.name.clone();
    let mut out = std::io::BufWriter::with_capacity(256 * 1024, std::io::stdout().lock());
    match input
        .stream()
        .and_then(|mut s| idx_content::dump::dump(&mut s, &h, &mut out))
    {
        Ok(()) => ExitStatus::SUCCESS,
        Err(e) => fail(format!("{name}: {e}"), 2),
    }
}
