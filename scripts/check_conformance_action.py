"""Checks conformance/action.yml's structure and prints the shell script of
one of its steps with the inputs filled in, for the ecosystem test to run
(GitHub Actions cannot run here):

    python check_conformance_action.py "Test reader" reader="python3 r.py" \
        reader-expected-failures=xf.txt

Inputs not given take their defaults. The script fails if a step refers
to an input the action does not define, or if the reader and writer steps
are not the same script for their mode."""
import sys

import action_yml

inputs, by_name = action_yml.load("conformance/action.yml", defaults=True)
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
print(action_yml.fill(step["run"], values))
