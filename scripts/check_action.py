"""Checks action.yml's structure and prints the shell command of its
"Validate" step with the inputs filled in (paths from argv[1], args from
argv[2]), for the ecosystem test to run. GitHub Actions cannot run here."""
import sys

import action_yml

inputs, by_name = action_yml.load("action.yml")
install = by_name["Install idx-validate"]
assert "crates/idx-validate" in install["run"] and "cargo install" in install["run"]
args = sys.argv[2] if len(sys.argv) > 2 else ""
print(action_yml.fill(by_name["Validate"]["run"], {"paths": sys.argv[1], "args": args}))
