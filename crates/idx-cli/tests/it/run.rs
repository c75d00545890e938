//! `idx_cli::run`: the command as a library function (what the Python
//! package's console script calls) gives the binary's exit statuses.

#[test]
fn run_returns_the_commands_exit_status() {
    test_support::assert_exit_statuses(
        "idx",
        idx_cli::run,
        &[
            (
                &["info", "../../corpus/valid/valid-mnist-labels-u8-10.idx"],
                0,
            ),
            (
                &["dump", "../../corpus/invalid/invalid-trailing-byte.idx"],
                1,
            ),
            (&["no-such-command"], 2),
        ],
    );
}
