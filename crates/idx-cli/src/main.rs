//! The `idx` binary: everything is in the library ([`idx_cli::run`]).

fn main() -> std::process::ExitCode {
    idx_cli::run(std::env::args_os()).into()
}
