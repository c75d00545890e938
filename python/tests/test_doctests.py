"""Every public function of idxkit and idxkit.testing has a docstring
example, and every example runs (the installed package's doctests)."""

import doctest
import inspect

import pytest

import idxkit
import idxkit.testing

MODULES = [idxkit, idxkit.testing]


def public_functions(module):
    return [
        name
        for name in module.__all__
        if inspect.isfunction(getattr(module, name)) and getattr(module, name).__module__ == module.__name__
    ]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_every_public_function_has_an_example(module):
    finder = doctest.DocTestFinder()
    with_examples = {t.name.rsplit(".", 1)[-1] for t in finder.find(module) if t.examples}
    names = public_functions(module)
    assert names
    assert sorted(set(names) - with_examples) == []


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_the_examples_run(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert result.attempted > 0
    assert result.failed == 0
