//! The exit status of the toolkit's commands (ripgrep's and ruff's
//! convention): 0 success, 1 a finding (an invalid input, a refused
//! conversion), 2 an error (usage, configuration, I/O).

/// What a command's run ended with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// 0: done, nothing wrong.
    Success,
    /// 1: the input is not valid (or, with `--deny-warnings`, warned about).
    Failure,
    /// 2: a usage, configuration or I/O error (2 wins over 1).
    Error,
}

impl ExitStatus {
    /// 0: success.
    pub const SUCCESS: ExitStatus = ExitStatus::Success;

    /// The process exit code.
    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Failure => 1,
            ExitStatus::Error => 2,
        }
    }
}

impl From<u8> for ExitStatus {
    /// 0 and 1 as themselves, anything else (clap's usage errors are 2) as
    /// [`ExitStatus::Error`].
    fn from(code: u8) -> ExitStatus {
        match code {
            0 => ExitStatus::Success,
            1 => ExitStatus::Failure,
            _ => ExitStatus::Error,
        }
    }
}

impl From<ExitStatus> for std::process::ExitCode {
    fn from(s: ExitStatus) -> std::process::ExitCode {
        std::process::ExitCode::from(s.code())
    }
}

impl From<ExitStatus> for i32 {
    fn from(s: ExitStatus) -> i32 {
        i32::from(s.code())
    }
}
