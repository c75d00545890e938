//! The `idx-validate` binary: everything is in the library ([`idx_validate::run`]).

fn main() -> std::process::ExitCode {
    idx_validate::run(std::env::args_os()).into()
}
