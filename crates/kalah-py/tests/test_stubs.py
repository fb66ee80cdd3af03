"""The type stubs travel with the package and name everything the extension module has."""

import ast
import pathlib
import pydoc

import kalah
import kalah._kalah as module


def stub_names():
    stub = pathlib.Path(kalah.__file__).parent / "_kalah.pyi"
    assert (pathlib.Path(kalah.__file__).parent / "py.typed").exists()
    names = {}
    for node in ast.parse(stub.read_text()).body:
        if isinstance(node, ast.ClassDef):
            names[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
                n.target.id for n in node.body if isinstance(n, ast.AnnAssign)
            }
        elif isinstance(node, ast.FunctionDef):
            names[node.name] = set()
        elif isinstance(node, ast.AnnAssign):
            names[node.target.id] = set()
    return names


def test_every_public_name_and_method_has_a_stub():
    names = stub_names()
    for name in dir(module):
        if name.startswith("_") and name != "__version__":
            continue
        assert name in names, name
        value = getattr(module, name)
        if isinstance(value, type) and not issubclass(value, BaseException):
            for attribute in dir(value):
                if not attribute.startswith("_"):
                    assert attribute in names[name], f"{name}.{attribute}"


def test_help_reads_the_docstrings():
    text = pydoc.render_doc(kalah.Game, renderer=pydoc.plaintext)
    assert "Plays an action" in text and "legal_actions" in text
    for value in (kalah.Rules, kalah.Engine, kalah.Solver, kalah.Batch, kalah.Egdb, kalah.random_playouts):
        assert value.__doc__ and len(value.__doc__) > 40, value
    for name in ("play", "undo", "legal_actions", "observation", "to_record", "perft"):
        assert getattr(kalah.Game, name).__doc__, name
