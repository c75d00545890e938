//! The matrix of implementations: description files, runs, saved results,
//! and `corpus/MATRIX.md`.
//!
//! Each implementation is described by one TOML file in the adapters folder
//! (`<name>.toml`, format in `corpus/README.md`, section "Implementation
//! description files"). `matrix` installs (optionally), runs every described
//! reader and writer, merges saved JSON results (implementations too heavy
//! for CI), and renders the Markdown.

use crate::cases::Case;
use crate::runner::{self, Adapter, Config, Mode, Report, Status};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// One implementation's description file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Description {
    /// Short name, equal to the file stem (column heading).
    pub name: String,
    /// One line: what it is.
    pub summary: String,
    /// Where it is published.
    #[serde(default)]
    pub homepage: Option<String>,
    /// Shell commands that install it into `$ENV` (run from the adapters
    /// folder, with `ENV` and `ADAPTERS` set), pinned to exact versions.
    #[serde(default)]
    pub install: Option<String>,
    /// A command printing its version on one line.
    #[serde(default)]
    pub version: Option<Vec<String>>,
    /// Per-case deadline in seconds (default 10).
    #[serde(default)]
    pub timeout: Option<f64>,
    /// Address-space limit in MiB (default 4096).
    #[serde(default)]
    pub memory_mib: Option<u64>,
    /// The one-line verdict for users; the matrix adds the case names that
    /// back it.
    #[serde(default)]
    pub verdict: Option<String>,
    /// Whether `.ci/run` runs it (false for implementations too heavy for
    /// CI, whose results are merged from a saved JSON file).
    #[serde(default = "yes")]
    pub ci: bool,
    /// Saved JSON results (relative to the adapters folder) that `matrix`
    /// merges when it does not run this implementation itself (`ci =
    /// false`, no `--only`).
    #[serde(default)]
    pub saved_results: Vec<String>,
    /// The reader adapter.
    #[serde(default)]
    pub reader: Option<Side>,
    /// The writer adapter.
    #[serde(default)]
    pub writer: Option<Side>,
}

fn yes() -> bool {
    true
}

/// A reader or writer adapter of an implementation.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Side {
    /// One-shot command (a reader gets the file appended).
    pub command: Vec<String>,
    /// Persistent-mode command, if the adapter has one.
    #[serde(default)]
    pub persistent: Option<Vec<String>>,
    /// Expected-failures file, relative to the adapters folder.
    #[serde(default)]
    pub expected_failures: Option<String>,
}

impl Description {
    /// The side for a mode.
    pub fn side(&self, mode: Mode) -> Option<&Side> {
        match mode {
            Mode::Reader => self.reader.as_ref(),
            Mode::Writer => self.writer.as_ref(),
        }
    }
}

/// Where things are: placeholders `{adapters}`, `{env}` (this
/// implementation's environment folder, `<envs>/<name>`) and `{bin}` (the
/// folder of this binary, where `idx` is built beside it).
#[derive(Debug, Clone)]
pub struct Places {
    /// The adapters folder (description files, scripts, expected failures).
    pub adapters: PathBuf,
    /// The folder holding one environment folder per implementation.
    pub envs: PathBuf,
    /// The folder of the running binary.
    pub bin: PathBuf,
}

impl Places {
    /// `{env}` of an implementation.
    pub fn env(&self, name: &str) -> PathBuf {
        self.envs.join(name)
    }

    /// `args` with the placeholders filled in.
    pub fn expand(&self, name: &str, args: &[String]) -> Vec<String> {
        args.iter()
            .map(|a| {
                a.replace("{adapters}", &self.adapters.display().to_string())
                    .replace("{env}", &self.env(name).display().to_string())
                    .replace("{bin}", &self.bin.display().to_string())
            })
            .collect()
    }
}

/// Reads every `*.toml` description in `dir`, sorted by name with the
/// reference first.
///
/// # Errors
/// Unreadable or malformed files, or a name that is not the file stem.
pub fn load_descriptions(dir: &Path) -> Result<Vec<Description>, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", idx_io::escape::path(dir)))?;
    let mut out = Vec::new();
    for e in entries {
        let path = e.map_err(|e| e.to_string())?.path();
        if path.extension().and_then(|x| x.to_str()) != Some("toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("{}: {e}", idx_io::escape::path(&path)))?;
        let d: Description =
            toml::from_str(&text).map_err(|e| format!("{}: {e}", idx_io::escape::path(&path)))?;
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        if d.name != stem {
            return Err(format!(
                "{}: name {:?} differs from the file name",
                idx_io::escape::path(&path),
                d.name
            ));
        }
        if d.reader.is_none() && d.writer.is_none() && d.saved_results.is_empty() {
            return Err(format!(
                "{}: no reader, no writer and no saved results",
                idx_io::escape::path(&path)
            ));
        }
        out.push(d);
    }
    out.sort_by(|a, b| (a.name != "reference", &a.name).cmp(&(b.name != "reference", &b.name)));
    Ok(out)
}

/// Runs a description's install commands (`sh -c`, from the adapters
/// folder, `ENV` and `ADAPTERS` set; its output goes to this process's
/// standard error).
///
/// # Errors
/// When the commands fail.
pub fn install(d: &Description, places: &Places) -> Result<(), String> {
    let Some(script) = &d.install else {
        return Ok(());
    };
    let status = Command::new("sh")
        .arg("-ec")
        .arg(script)
        .current_dir(&places.adapters)
        .env("ENV", places.env(&d.name))
        .env("ADAPTERS", &places.adapters)
        .env("BIN", &places.bin)
        .stdout(std::process::Stdio::inherit())
        .status()
        .map_err(|e| format!("{}: install: {e}", d.name))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{}: install failed ({status})", d.name))
    }
}

/// The version line the description's probe prints, or why not.
pub fn probe_version(d: &Description, places: &Places) -> String {
    let Some(cmd) = &d.version else {
        return "unknown".into();
    };
    let args = places.expand(&d.name, cmd);
    let f = crate::process::run_once(&args, None, Duration::from_secs(60), None);
    match f.ending {
        crate::process::Ending::Code(0) => String::from_utf8_lossy(&f.stdout).trim().to_string(),
        _ => format!("unavailable ({})", f.stderr.summary()),
    }
}

/// Runs an implementation's reader and writer over the corpus, the cases
/// in the order `seed` gives, each its variant from `seed` unless
/// `variants` is false.
///
/// # Errors
/// An unreadable expected-failures file or a runner error (a failed
/// preflight among them).
pub fn run_implementation(
    cases: &[Case],
    d: &Description,
    places: &Places,
    one_shot: bool,
    seed: u64,
    variants: bool,
) -> Result<Vec<Report>, String> {
    let version = probe_version(d, places);
    let mut out = Vec::new();
    for mode in [Mode::Reader, Mode::Writer] {
        let Some(side) = d.side(mode) else { continue };
        let (command, persistent) = match (&side.persistent, one_shot) {
            (Some(p), false) => (places.expand(&d.name, p), true),
            _ => (places.expand(&d.name, &side.command), false),
        };
        let expected_failures = match &side.expected_failures {
            Some(f) => {
                let p = places.adapters.join(f);
                runner::read_expected_failures(&p)
                    .map_err(|e| format!("{}: {e}", idx_io::escape::path(&p)))?
            }
            None => vec![],
        };
        let cfg = Config {
            adapter: Adapter {
                command,
                persistent,
                timeout: runner::deadline(d.timeout.unwrap_or(10.0)),
                memory_mib: Some(d.memory_mib.unwrap_or(4096)),
                startup: runner::STARTUP_MIN,
            },
            run: vec![],
            skip: vec![],
            expected_failures,
            seed,
            variants,
        };
        let mut r = runner::run(cases, mode, &cfg)
            .map_err(|e| format!("{} {}: {e}", d.name, mode.as_str()))?;
        r.name.clone_from(&d.name);
        r.version.clone_from(&version);
        out.push(r);
    }
    Ok(out)
}

/// What changed from the expected failures: failures not listed, and listed
/// cases that passed.
pub fn changes(r: &Report) -> Vec<String> {
    r.outcomes
        .iter()
        .filter(|o| o.unexpected_failure() || o.unexpected_pass())
        .map(|o| {
            format!(
                "{} {}: {} {} ({}: {})",
                r.name,
                r.mode.as_str(),
                o.id,
                if o.failed {
                    "failed but is not in its expected failures"
                } else {
                    "passed but is listed as an expected failure"
                },
                o.status.as_str(),
                o.detail
            )
        })
        .collect()
}

/// The expected-failures file a report implies (for updating after a
/// checked change); `regenerate` is the command that rewrites it.
pub fn expected_failures_text(r: &Report, regenerate: &str) -> String {
    let version = if r.version.is_empty() {
        String::new()
    } else {
        format!(" ({})", r.version)
    };
    let mut s = format!(
        "# Known failures of the {} {}{version}, one case ID per line.\n\
         # CI fails when this changes; regenerate with {regenerate} after checking.\n",
        r.name,
        r.mode.as_str(),
    );
    for o in &r.outcomes {
        let varied = o.detail.contains(runner::VARIANT);
        match o.listed() {
            runner::Listed::No => {}
            runner::Listed::SomeVariants => s.push_str(&format!(
                "{}{}  # fails some of its variants (its bytes vary from run to run; see its report)\n",
                runner::SOME_VARIANTS,
                o.id
            )),
            // a varied case's detail speaks of this run's bytes
            runner::Listed::Fails if varied || o.committed_failed.is_some() => s.push_str(
                &format!("{}  # its bytes vary from run to run; see its report\n", o.id),
            ),
            runner::Listed::Fails => s.push_str(&format!(
                "{}  # {}: {}\n",
                o.id,
                o.status.as_str(),
                crate::process::cut(&o.detail.replace('\n', " "), 100)
            )),
        }
    }
    s
}

const DTYPES: [&str; 6] = ["u8", "i8", "i16", "i32", "f32", "f64"];

/// Case IDs, with families that differ only in the element type folded into
/// one glob (`valid-*-rank255 (6)`).
pub fn fold_ids(ids: &[&str]) -> String {
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for id in ids {
        let key: Vec<&str> = id
            .split('-')
            .map(|t| if DTYPES.contains(&t) { "*" } else { t })
            .collect();
        let key = key.join("-");
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some(g) => g.1.push(id),
            None => groups.push((key, vec![id])),
        }
    }
    groups
        .iter()
        .map(|(k, v)| {
            if v.len() > 1 {
                format!("`{k}` ({})", v.len())
            } else {
                format!("`{}`", v[0])
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// Renders the matrix.
pub fn render(cases: &[Case], reports: &[Report], descriptions: &[Description]) -> String {
    let mut s = String::new();
    s.push_str("# Conformance matrix\n\n");
    s.push_str(
        "Generated by `idx-conformance matrix` from real runs of the implementations described in\n\
         [`crates/idx-conformance/adapters/`](../crates/idx-conformance/adapters/) (one `.toml` each) and\n\
         from saved results merged with `--merge`; do not edit by hand. Statuses are defined in\n\
         [README.md](README.md#statuses). `-` means the case does not apply (writers get only cases with\n\
         content; cases that need validator options are skipped, see the end).\n\n",
    );
    s.push_str(
        "## Implementations\n\n| name | modes | version | what it is |\n|---|---|---|---|\n",
    );
    let mut names: Vec<&str> = Vec::new();
    for r in reports {
        if !names.contains(&r.name.as_str()) {
            names.push(&r.name);
        }
    }
    for n in &names {
        let rs: Vec<&Report> = reports.iter().filter(|r| r.name == *n).collect();
        let d = descriptions.iter().find(|d| d.name == *n);
        let modes: Vec<String> = rs
            .iter()
            .map(|r| {
                format!(
                    "{}{}",
                    r.mode.as_str(),
                    if r.persistent { " (persistent)" } else { "" }
                )
            })
            .collect();
        let what = d.map_or(String::new(), |d| match &d.homepage {
            Some(h) => format!("{} ([link]({h}))", d.summary),
            None => d.summary.clone(),
        });
        s.push_str(&format!(
            "| {n} | {} | {} | {} |\n",
            modes.join(", "),
            md_cell(&rs[0].version),
            md_cell(&what)
        ));
    }
    s.push_str("\n## Verdicts\n\n");
    for n in &names {
        let rs: Vec<&Report> = reports.iter().filter(|r| r.name == *n).collect();
        let d = descriptions.iter().find(|d| d.name == *n);
        let verdict = d
            .and_then(|d| d.verdict.clone())
            .unwrap_or_else(|| "(no verdict written)".into());
        s.push_str(&format!("- **{n}**: {verdict}"));
        let mut evidence = Vec::new();
        for r in &rs {
            for st in Status::ALL {
                if st == Status::Pass {
                    continue;
                }
                // Failures, and implementation-defined cases that did more
                // than accept or reject.
                let notable = |o: &runner::Outcome| {
                    o.failed || !matches!(o.status, Status::Accepted | Status::Rejected)
                };
                let ids: Vec<&str> = r
                    .outcomes
                    .iter()
                    .filter(|o| o.status == st && notable(o))
                    .map(|o| o.id.as_str())
                    .collect();
                if !ids.is_empty() {
                    evidence.push(format!(
                        "{} {}: {}",
                        r.mode.as_str(),
                        st.as_str(),
                        fold_ids(&ids)
                    ));
                }
            }
        }
        if evidence.is_empty() {
            s.push_str("\n  <sub>no failures</sub>\n");
        } else {
            s.push_str(&format!("\n  <sub>{}</sub>\n", evidence.join("; ")));
        }
    }
    s.push_str("\n## Summary\n\n| implementation | mode | cases | pass |");
    let fail_statuses = [
        Status::AcceptedInvalid,
        Status::RejectedValid,
        Status::WrongContent,
        Status::WrongBytes,
        Status::Crash,
        Status::Timeout,
    ];
    for st in fail_statuses {
        s.push_str(&format!(" {} |", st.as_str()));
    }
    s.push_str(" implementation-defined | skipped |\n|---|---|---|---|");
    s.push_str(&"---|".repeat(fail_statuses.len() + 2));
    s.push('\n');
    for r in reports {
        let count =
            |f: &dyn Fn(&runner::Outcome) -> bool| r.outcomes.iter().filter(|o| f(o)).count();
        s.push_str(&format!(
            "| {} | {} | {} | {} |",
            r.name,
            r.mode.as_str(),
            r.outcomes.len(),
            count(&|o| o.status == Status::Pass)
        ));
        for st in fail_statuses {
            let n = count(&|o| o.status == st && o.failed);
            s.push_str(&if n == 0 {
                " 0 |".to_string()
            } else {
                format!(" **{n}** |")
            });
        }
        let mut imp: BTreeMap<&str, usize> = BTreeMap::new();
        for o in r
            .outcomes
            .iter()
            .filter(|o| o.verdict == crate::cases::Verdict::ImplementationDefined)
        {
            *imp.entry(o.status.as_str()).or_default() += 1;
        }
        let imp: Vec<String> = imp.iter().map(|(k, v)| format!("{v} {k}")).collect();
        s.push_str(&format!(" {} | {} |\n", imp.join(", "), r.skipped.len()));
    }
    s.push_str("\n## Cases\n\n| case | verdict |");
    for r in reports {
        s.push_str(&format!(" {} {} |", r.name, r.mode.as_str()));
    }
    s.push_str("\n|---|---|");
    s.push_str(&"---|".repeat(reports.len()));
    s.push('\n');
    let lookup: Vec<BTreeMap<&str, &runner::Outcome>> = reports
        .iter()
        .map(|r| r.outcomes.iter().map(|o| (o.id.as_str(), o)).collect())
        .collect();
    for c in cases {
        if runner::applies(c, Mode::Reader).is_err() {
            continue;
        }
        s.push_str(&format!("| {} | {} |", c.id, c.verdict.as_str()));
        for l in &lookup {
            let cell = match l.get(c.id.as_str()) {
                None => "-".to_string(),
                Some(o) if o.failed => format!("**{}**", o.status.as_str()),
                Some(o) => o.status.as_str().to_string(),
            };
            s.push_str(&format!(" {cell} |"));
        }
        s.push('\n');
    }
    s.push_str(
        "\nFailures in **bold**. Implementation-defined cases are recorded, never failed.\n",
    );
    s.push_str("\n## Skipped cases\n\n");
    for c in cases {
        if let Err(reason) = runner::applies(c, Mode::Reader) {
            s.push_str(&format!("- `{}`: {reason}\n", c.id));
        }
    }
    let notes: Vec<String> = reports
        .iter()
        .flat_map(|r| {
            r.notes
                .iter()
                .map(move |n| format!("- {} {}: {n}\n", r.name, r.mode.as_str()))
        })
        .collect();
    if !notes.is_empty() {
        s.push_str("\n## Notes from the runs\n\n");
        notes.iter().for_each(|n| s.push_str(n));
    }
    s
}
