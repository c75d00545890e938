//! The dataset rules over a run's results: gathers each file's header (and,
//! for labels files, a scan of the values) and adds the library's dataset
//! findings to the files they are about. Every verdict comes from
//! `idx::dataset`.

use crate::check::{FileResult, Source};
use idx::dataset::{check_dataset, role, scan_labels, DatasetFile, DatasetOptions, Role};
use std::fs::File;
use std::path::PathBuf;

/// What the dataset rules need beyond the results.
#[derive(Debug, Clone, Default)]
pub struct DatasetSettings {
    /// `--classes N`.
    pub classes: Option<u32>,
    /// `--pair IMAGES LABELS`, as given.
    pub pairs: Vec<(PathBuf, PathBuf)>,
    /// Decompress gzip labels files for the value scan.
    pub decompress: bool,
}

/// Adds the dataset findings to `results`. `walked` lists the indices of
/// results found by walking a directory.
pub fn apply(results: &mut [FileResult], walked: &[usize], s: &DatasetSettings) {
    let index = |p: &PathBuf| {
        results
            .iter()
            .position(|r| matches!(&r.source, Source::File(q) if q == p))
    };
    let pairs: Vec<(usize, usize)> = s
        .pairs
        .iter()
        .filter_map(|(a, b)| Some((index(a)?, index(b)?)))
        .collect();
    let opts = DatasetOptions {
        classes: s.classes,
        pairs,
    };
    let mut files: Vec<DatasetFile> = results
        .iter()
        .enumerate()
        .map(|(i, r)| DatasetFile {
            path: match &r.source {
                Source::File(p) => p.display().to_string(),
                Source::Stdin => String::new(),
            },
            header: r
                .outcome
                .as_ref()
                .ok()
                .and_then(|c| c.report.header.clone()),
            labels: None,
            walked: walked.contains(&i),
        })
        .collect();
    for i in 0..files.len() {
        if role(&files, &opts, i) != Some(Role::Labels) || files[i].header.is_none() {
            continue;
        }
        // The label values are scanned in a second read, so only where that
        // is safe and bounded: a file that validated without error (its
        // payload, decompressed, is within --max-decompressed) and that is
        // a regular file (a FIFO cannot be read twice; opening it again
        // would wait for a writer).
        let validated = results[i]
            .outcome
            .as_ref()
            .is_ok_and(|c| !c.report.has_errors());
        if let (true, Source::File(p)) = (validated, &results[i].source) {
            if !std::fs::metadata(p).is_ok_and(|m| m.is_file()) {
                continue;
            }
            files[i].labels = File::open(p)
                .and_then(|f| scan_labels(f, s.decompress, s.classes))
                .ok()
                .flatten();
        }
    }
    for (i, f) in check_dataset(&files, &opts) {
        if let Ok(c) = &mut results[i].outcome {
            c.report.findings.push(f);
            c.report
                .findings
                .sort_by(|x, y| (x.offset, x.rule.code()).cmp(&(y.offset, y.rule.code())));
        }
    }
}
