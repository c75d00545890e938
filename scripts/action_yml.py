"""What scripts/check_action.py (action.yml) and
scripts/check_conformance_action.py (conformance/action.yml) share: a
composite action's structure checked, and a step's script with its inputs
filled in. GitHub Actions cannot run here."""
import re

import yaml


def load(path, defaults=False):
    """The action at `path` as (inputs, steps by name), once checked: a name
    and a description, composite, every input described (and, with
    `defaults`, given a default), every step runs a bash script or uses an
    action, and no step refers to an input the action does not define."""
    action = yaml.safe_load(open(path))
    assert action["name"] and action["description"], "name and description"
    runs = action["runs"]
    assert runs["using"] == "composite", "a composite action"
    inputs = action["inputs"]
    for name, spec in inputs.items():
        assert "description" in spec, "input %s has a description" % name
        if defaults:
            assert "default" in spec, "input %s has a default" % name
    steps = runs["steps"]
    for s in steps:
        assert ("run" in s) != ("uses" in s), "a step runs or uses: %s" % s.get("name")
        if "run" in s:
            assert s.get("shell") == "bash", "run steps name their shell"
        text = yaml.safe_dump(s)
        for ref in re.findall(r"inputs\.([a-z-]+)", text):
            assert ref in inputs, "step %s uses undefined input %s" % (s.get("name"), ref)
    return inputs, {s.get("name"): s for s in steps}


def fill(script, values):
    """`script` with each `${{ inputs.NAME }}` of `values` replaced by its
    value; fails if any `${{` is left."""
    script = re.sub(r"\$\{\{ inputs\.([a-z-]+) \}\}", lambda m: values.get(m.group(1), m.group(0)), script)
    assert "${{" not in script, script
    return script
