//! The dataset rules over a run's results: gathers each file's header (and,
//! for labels files, the scan of the values that validation made in its
//! one pass over the file, see [`scan_options`]) and adds the library's
//! dataset findings to the files they are about. Every verdict comes from
//! `idx::dataset`.

use crate::check::{FileResult, Source};
use idx::__private::{dataset_name, role, Role};
use idx::dataset::{check_dataset, DatasetFile, DatasetOptions};
use std::path::{Path, PathBuf};

/// What the dataset rules need beyond the results.
#[derive(Debug, Clone, Default)]
pub struct DatasetSettings {
    /// `--classes N`.
    pub classes: Option<u32>,
    /// `--pair IMAGES LABELS`, as given.
    pub pairs: Vec<(PathBuf, PathBuf)>,
}

/// The validation options for `path`: `options` with the label scan on when
/// the file may be a labels file (named so by the convention, or the labels
/// of a `--pair`, or any file under `--classes`: the library scans a file
/// whose header is a labels header, and a rank-1 integer payload's values
/// then prove its byte order against `0..classes-1`, spec 6.1.1), so that
/// its values are scanned in the same pass as its validation, never by
/// reading it again.
pub fn scan_options(path: &Path, options: idx::Options, s: &DatasetSettings) -> idx::Options {
    let named = dataset_name(&path.display().to_string()).is_some_and(|n| n.role == Role::Labels);
    if named || s.classes.is_some() || s.pairs.iter().any(|(_, l)| l == path) {
        options.with_scan_labels(Some(s.classes))
    } else {
        options
    }
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
    let role_of: Vec<Option<Role>> = files
        .iter()
        .enumerate()
        .map(|(i, f)| role(&f.path, &opts.pairs, i))
        .collect();
    for (i, f) in files.iter_mut().enumerate() {
        if role_of[i] == Some(Role::Labels) {
            f.labels = results[i]
                .outcome
                .as_ref()
                .ok()
                .and_then(|c| c.report.labels.clone());
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
