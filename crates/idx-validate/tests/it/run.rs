//! `idx_validate::run`: the command as a library function (what the Python
//! package's console script calls) gives the binary's exit statuses.

#[test]
fn run_returns_the_commands_exit_status() {
    test_support::assert_exit_statuses(
        "idx-validate",
        idx_validate::run,
        &[
            (
                &["-q", "../../corpus/valid/valid-mnist-labels-u8-10.idx"],
                0,
            ),
            (
                &[
                    "-q",
                    "--format",
                    "short",
                    "../../corpus/invalid/invalid-trailing-byte.idx",
                ],
                1,
            ),
            (&["--no-such-option"], 2),
            (&["--explain", "IDX999"], 2),
            (&["--version"], 0),
        ],
    );
}
