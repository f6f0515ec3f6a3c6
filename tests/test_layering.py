"""The design's layering, read from the sources: no import circle (function-local imports count),
and `stratpol` loads the neural add-ons only lazily, from the command line and the method registry."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import networkx as nx

SRC = Path(__file__).resolve().parents[1] / "src"
# where stratpol may import `neural`, inside functions only
NEURAL_IMPORTERS = {"stratpol.methods", "stratpol.cli.neural", "stratpol.cli.bench", "stratpol.cli.experiment"}


def _modules() -> dict[str, Path]:
    modules = {}
    for path in SRC.rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _imports(name: str, path: Path) -> list[tuple[str, bool]]:
    """(imported module, at top level) for each import of the module, those under
    `if TYPE_CHECKING:` left out."""
    tree = ast.parse(path.read_text())
    skipped = {id(node) for branch in ast.walk(tree) if isinstance(branch, ast.If)
               and "TYPE_CHECKING" in ast.unparse(branch.test) for part in branch.body for node in ast.walk(part)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for statement in tree.body:
        for node in ast.walk(statement):
            if id(node) in skipped:
                continue
            top = node is statement
            if isinstance(node, ast.Import):
                found += [(alias.name, top) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    prefix = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join(prefix + ([base] if base else []))
                found += [(base, top)] + [(f"{base}.{alias.name}", top) for alias in node.names]
    return found


def _graph() -> tuple[nx.DiGraph, dict[str, list[tuple[str, bool]]]]:
    modules = _modules()
    graph, imports = nx.DiGraph(), {}
    for name, path in modules.items():
        graph.add_node(name)
        imports[name] = _imports(name, path)
        for imported, _ in imports[name]:
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            # a module's own package (its __init__) is not a circle through the module
            if imported and imported != name and not name.startswith(imported + "."):
                graph.add_edge(name, imported)
    return graph, imports


def test_no_import_circle():
    graph, _ = _graph()
    circles = [sorted(component) for component in nx.strongly_connected_components(graph) if len(component) > 1]
    assert circles == []


def test_stratpol_imports_neural_only_lazily_from_the_cli_and_the_method_registry():
    _, imports = _graph()
    importers = {name: tops for name, found in imports.items() if name.startswith("stratpol")
                 if (tops := [top for imported, top in found if imported.split(".")[0] == "neural"])}
    assert set(importers) <= NEURAL_IMPORTERS
    assert not any(any(tops) for tops in importers.values())


def test_stratpol_learn_never_loads_torch(tmp_path):
    code = ("import sys; from stratpol.cli import main; assert main(['learn', 'gripper']) == 0; "
            "print(sorted(m for m in ('torch', 'wlplan', 'xgboost', 'neural') if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "STRATPOL_CACHE": str(tmp_path)})
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == "[]"
