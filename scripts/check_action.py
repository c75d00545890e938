"""Checks action.yml's structure and prints the shell command of its
"Validate" step with the inputs filled in (paths from argv[1], args from
argv[2]), for the ecosystem test to run. GitHub Actions cannot run here."""
import re
import sys

import yaml

action = yaml.safe_load(open("action.yml"))
assert action["name"] and action["description"], "name and description"
runs = action["runs"]
assert runs["using"] == "composite", "a composite action"
inputs = action["inputs"]
for name, spec in inputs.items():
    assert "description" in spec, "input %s has a description" % name
steps = runs["steps"]
for s in steps:
    assert ("run" in s) != ("uses" in s), "a step runs or uses: %s" % s.get("name")
    if "run" in s:
        assert s.get("shell") == "bash", "run steps name their shell"
    text = yaml.safe_dump(s)
    for ref in re.findall(r"inputs\.([a-z-]+)", text):
        assert ref in inputs, "step %s uses undefined input %s" % (s.get("name"), ref)
install = next(s for s in steps if s.get("name") == "Install idx-validate")
assert "crates/idx-validate" in install["run"] and "cargo install" in install["run"]
validate = next(s for s in steps if s.get("name") == "Validate")
cmd = validate["run"]
cmd = cmd.replace("${{ inputs.paths }}", sys.argv[1]).replace("${{ inputs.args }}", sys.argv[2] if len(sys.argv) > 2 else "")
assert "${{" not in cmd, cmd
print(cmd)
