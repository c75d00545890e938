//! `idx_validate::run`: the command as a library function (what the Python
//! package's console script calls) gives the binary's exit statuses.

fn idx_validate_run(args: &[&str]) -> i32 {
    idx_validate::run(
        std::iter::once("idx-validate")
            .chain(args.iter().copied())
            .map(std::ffi::OsString::from)
            .collect::<Vec<_>>(),
    )
    .into()
}

#[test]
fn run_returns_the_commands_exit_status() {
    assert_eq!(
        idx_validate_run(&["-q", "../../corpus/valid/valid-mnist-labels-u8-10.idx"]),
        0
    );
    assert_eq!(
        idx_validate_run(&[
            "-q",
            "--format",
            "short",
            "../../corpus/invalid/invalid-trailing-byte.idx"
        ]),
        1
    );
    assert_eq!(idx_validate_run(&["--no-such-option"]), 2);
    assert_eq!(idx_validate_run(&["--explain", "IDX999"]), 2);
    assert_eq!(idx_validate_run(&["--version"]), 0);
}
