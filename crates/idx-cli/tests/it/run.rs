//! `idx_cli::run`: the command as a library function (what the Python
//! package's console script calls) gives the binary's exit statuses.

fn idx_cli_run(args: &[&str]) -> i32 {
    idx_cli::run(
        std::iter::once("idx")
            .chain(args.iter().copied())
            .map(std::ffi::OsString::from)
            .collect::<Vec<_>>(),
    )
    .into()
}

#[test]
fn run_returns_the_commands_exit_status() {
    assert_eq!(
        idx_cli_run(&["info", "../../corpus/valid/valid-mnist-labels-u8-10.idx"]),
        0
    );
    assert_eq!(
        idx_cli_run(&["dump", "../../corpus/invalid/invalid-trailing-byte.idx"]),
        1
    );
    assert_eq!(idx_cli_run(&["no-such-command"]), 2);
}
