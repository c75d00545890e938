"""Checks conformance/action.yml's structure and prints the shell script of
one of its steps with the inputs filled in, for the ecosystem test to run
(GitHub Actions cannot run here):

    python check_conformance_action.py "Test reader" reader="python3 r.py" \
        reader-expected-failures=xf.txt

Inputs not given take their defaults. The script fails if a step refers
to an input the action does not define, or if the reader and writer steps
are not the same script for their mode."""
import re
import sys

import yaml

action = yaml.safe_load(open("conformance/action.yml"))
assert action["name"] and action["description"], "name and description"
runs = action["runs"]
assert runs["using"] == "composite", "a composite action"
inputs = action["inputs"]
for name, spec in inputs.items():
    assert "description" in spec, "input %s has a description" % name
    assert "default" in spec, "input %s has a default" % name
steps = runs["steps"]
for s in steps:
    assert ("run" in s) != ("uses" in s), "a step runs or uses: %s" % s.get("name")
    if "run" in s:
        assert s.get("shell") == "bash", "run steps name their shell"
    text = yaml.safe_dump(s)
    for ref in re.findall(r"inputs\.([a-z-]+)", text):
        assert ref in inputs, "step %s uses undefined input %s" % (s.get("name"), ref)
by_name = {s.get("name"): s for s in steps}
install = by_name["Install idx-conformance"]
assert "cargo install --locked" in install["run"] and "../crates/idx-conformance" in install["run"]
reader, writer = by_name["Test reader"], by_name["Test writer"]
assert reader["if"] == "${{ inputs.reader != '' }}" and writer["if"] == "${{ inputs.writer != '' }}"
mirrored = reader["run"].replace("reader", "writer")
assert mirrored == writer["run"], "the writer step is the reader step for writers"
assert "--strict-expected" in reader["run"], "a listed case that passes is a change too"

step = by_name[sys.argv[1]]
values = {k: str(v.get("default", "")) for k, v in inputs.items()}
for arg in sys.argv[2:]:
    k, _, v = arg.partition("=")
    assert k in inputs, "no input %s" % k
    values[k] = v
script = re.sub(r"\$\{\{ inputs\.([a-z-]+) \}\}", lambda m: values[m.group(1)], step["run"])
assert "${{" not in script, script
print(script)
