"""Console scripts: the ``idx-validate`` and ``idx`` commands.

Each calls the command's own Rust code (``idx_validate::run`` and
``idx_cli::run``, compiled into the native module) with ``sys.argv`` and
exits with its status, so the wheel's commands are the binaries' commands.
"""

import sys

from . import _native


def idx_validate() -> None:
    """``idx-validate PATH...``: see ``idx-validate --help``."""
    sys.exit(_native.run_idx_validate(["idx-validate", *sys.argv[1:]]))


def idx() -> None:
    """``idx show|info|dump|write``: see ``idx --help``."""
    sys.exit(_native.run_idx(["idx", *sys.argv[1:]]))
