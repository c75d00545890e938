//! The rules that combine flags and configuration into one run, each a
//! plain function with its unit tests (the ruff pattern): the command only
//! calls them.

use crate::check::Source;
use crate::config::RuleFilter;
use crate::render::Totals;
use crate::walk::Input;
use idx_io::ExitStatus;
use std::path::Path;

/// `--select`/`--ignore` replace the configuration's lists (they do not
/// add to them).
pub fn rule_filter(
    select: Option<Vec<String>>,
    ignore: Option<Vec<String>>,
    cfg: &RuleFilter,
) -> RuleFilter {
    RuleFilter {
        select: select.unwrap_or_else(|| cfg.select.clone()),
        ignore: ignore.unwrap_or_else(|| cfg.ignore.clone()),
    }
}

/// The severity overrides: the configuration's, then each `--severity`
/// in order (the command line wins rule by rule).
pub fn severities(cfg: &idx::Severities, cli: &[idx::Severities]) -> idx::Severities {
    let mut out = cfg.clone();
    for (rule, severity) in cli.iter().flat_map(idx::Severities::iter) {
        // invariant: every override was accepted by `Severities::set` once
        let _ = out.set(rule, severity);
    }
    out
}

/// Whether the run repairs: `--fix`, or `fix = true` in the configuration;
/// `--no-fix` wins over both (a report-only run never writes).
pub fn fix_on(fix: bool, no_fix: bool, cfg_fix: Option<bool>) -> bool {
    !no_fix && (fix || cfg_fix.unwrap_or(false))
}

/// The repair's input rules: `--output` needs `--fix` and exactly one
/// input, a file; with `--fix` (not `--diff`), standard input is repaired
/// to standard output, so it must be the only input. Returns whether
/// standard output carries a repaired stream (standard input's, or the
/// file's under `--output -`): the report then goes to standard error.
///
/// # Errors
/// The usage error's message.
pub fn repair_inputs(
    fix_on: bool,
    diff: bool,
    output: Option<&Path>,
    inputs: &[Input],
) -> Result<bool, String> {
    if output.is_some() && !fix_on {
        return Err("--output needs --fix".into());
    }
    if output.is_some() {
        let files = inputs
            .iter()
            .filter(|i| matches!(i, Ok(Source::File(_))))
            .count();
        if files != 1 || inputs.len() != 1 {
            return Err("--output takes exactly one input file (standard input is repaired to standard output)".into());
        }
    }
    let stdin_fixed = fix_on && !diff && inputs.iter().any(|i| matches!(i, Ok(Source::Stdin)));
    if stdin_fixed && inputs.len() != 1 {
        return Err("with --fix, standard input is repaired to standard output, so it must be the only input".into());
    }
    let to_stdout = !diff && output.is_some_and(idx_io::is_dash);
    Ok(stdin_fixed || to_stdout)
}

/// The run's exit status: 2 for an unreadable input, a failed repair or a
/// path with nothing to check (2 wins over 1); 1 for an invalid input
/// (unless `--exit-zero`), for an applied fix under
/// `--exit-non-zero-on-fix`, and for a change `--diff` would make; else 0.
pub fn exit_status(
    t: &Totals,
    nothing_found: bool,
    exit_zero: bool,
    exit_non_zero_on_fix: bool,
    diff: bool,
) -> ExitStatus {
    if t.unreadable > 0 || t.repair_failed > 0 || nothing_found {
        ExitStatus::Error
    } else if (t.invalid > 0 && !exit_zero) || (t.fixed > 0 && (exit_non_zero_on_fix || diff)) {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    }
}

#[cfg(test)]
mod tests {
    use idx::{Rule, Severity};

    #[test]
    fn the_command_line_wins_over_the_configuration_rule_by_rule() {
        let cfg: idx::Severities = "IDX501=error,IDX502=info".parse().unwrap(); // ok: test
        let cli: Vec<idx::Severities> = vec![
            "IDX501=warning".parse().unwrap(), // ok: test
            "IDX503=error".parse().unwrap(),   // ok: test
        ];
        let s = severities(&cfg, &cli);
        assert_eq!(s.get(Rule::LikelyLittleEndian), Some(Severity::Warning));
        assert_eq!(s.get(Rule::NonFinite), Some(Severity::Info));
        assert_eq!(s.get(Rule::FileNameMismatch), Some(Severity::Error));
        assert_eq!(severities(&cfg, &[]), cfg);
    }

    use super::*;
    use std::path::PathBuf;

    fn file(p: &str) -> Input {
        Ok(Source::File(PathBuf::from(p)))
    }

    #[test]
    fn the_command_line_replaces_the_configurations_rule_lists() {
        let cfg = RuleFilter {
            select: vec!["IDX1".into()],
            ignore: vec!["IDX5".into()],
        };
        let f = rule_filter(Some(vec!["IDX2".into()]), None, &cfg);
        assert_eq!(
            (f.select, f.ignore),
            (vec!["IDX2".to_string()], vec!["IDX5".to_string()])
        );
        let f = rule_filter(None, Some(vec![]), &cfg);
        assert_eq!((f.select, f.ignore), (vec!["IDX1".to_string()], vec![]));
    }

    #[test]
    fn no_fix_wins_over_the_flag_and_the_configuration() {
        assert!(fix_on(true, false, None));
        assert!(fix_on(false, false, Some(true)));
        assert!(!fix_on(false, false, Some(false)));
        assert!(!fix_on(true, true, Some(true)));
        assert!(!fix_on(false, true, Some(true)));
    }

    #[test]
    fn output_needs_fix_and_one_file_and_stdin_is_repaired_alone() {
        let out = Some(Path::new("o.idx"));
        assert_eq!(
            repair_inputs(false, false, out, &[file("a")]).unwrap_err(),
            "--output needs --fix"
        );
        assert!(repair_inputs(true, false, out, &[file("a"), file("b")]).is_err());
        assert!(repair_inputs(true, false, out, &[Ok(Source::Stdin)]).is_err());
        assert_eq!(repair_inputs(true, false, out, &[file("a")]), Ok(false));
        // `--output -` is standard output, which then carries the stream
        let dash = Some(Path::new("-"));
        assert_eq!(repair_inputs(true, false, dash, &[file("a")]), Ok(true));
        assert_eq!(repair_inputs(true, true, dash, &[file("a")]), Ok(false));
        assert!(repair_inputs(true, false, dash, &[file("a"), file("b")]).is_err());
        assert_eq!(
            repair_inputs(true, false, None, &[Ok(Source::Stdin)]),
            Ok(true)
        );
        assert!(repair_inputs(true, false, None, &[Ok(Source::Stdin), file("a")]).is_err());
        // --diff writes nothing: standard input may come with files
        assert_eq!(
            repair_inputs(true, true, None, &[Ok(Source::Stdin), file("a")]),
            Ok(false)
        );
        assert_eq!(
            repair_inputs(false, false, None, &[Ok(Source::Stdin), file("a")]),
            Ok(false)
        );
    }

    #[test]
    fn two_wins_over_one_and_the_fix_flags() {
        let t = |invalid, unreadable, fixed, repair_failed| Totals {
            invalid,
            unreadable,
            fixed,
            repair_failed,
            ..Totals::default()
        };
        assert_eq!(
            exit_status(&t(0, 0, 0, 0), false, false, false, false),
            ExitStatus::Success
        );
        assert_eq!(
            exit_status(&t(0, 0, 0, 0), true, false, false, false),
            ExitStatus::Error
        );
        assert_eq!(
            exit_status(&t(1, 1, 0, 0), false, false, false, false),
            ExitStatus::Error
        );
        assert_eq!(
            exit_status(&t(1, 0, 0, 1), false, true, false, false),
            ExitStatus::Error
        );
        assert_eq!(
            exit_status(&t(1, 0, 0, 0), false, false, false, false),
            ExitStatus::Failure
        );
        assert_eq!(
            exit_status(&t(1, 0, 0, 0), false, true, false, false),
            ExitStatus::Success
        );
        assert_eq!(
            exit_status(&t(0, 0, 2, 0), false, false, false, false),
            ExitStatus::Success
        );
        assert_eq!(
            exit_status(&t(0, 0, 2, 0), false, false, true, false),
            ExitStatus::Failure
        );
        assert_eq!(
            exit_status(&t(0, 0, 2, 0), false, true, false, true),
            ExitStatus::Failure
        );
    }
}
