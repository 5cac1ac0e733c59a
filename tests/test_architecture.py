"""The import layers, pinned: each layer imports only layers below it.

    contract (games.contract, games.params, games.contract_legacy, games.rng,
    games.jit_cache, games.compiled; games.base re-exports)
      <- games (the registry and the concrete games)   <- frontends <- benchmarks <- cli.py
      <- mcts  (the search)                             <-´

``games`` and ``mcts`` both stand on the contract and never import each other (mcts.rng and
games.base are re-exports kept for existing plug-ins). ``benchmarks.lab`` (the maintainers'
diagnostics) is in the benchmarks layer: it may use frontends (say frontends.gtp_client), and
nothing of the product imports it. Imports inside functions count too.
"""
import ast
from pathlib import Path

import pytest

import games

ROOT = Path(__file__).parent.parent
CONTRACT = {"games.contract", "games.rng", "games.jit_cache", "games.compiled", "games.base",
            "games.params", "games.contract_legacy", "games.release"}
PROJECT = ("games", "mcts", "frontends", "benchmarks", "cli")


def layer(module):
    if module in CONTRACT:
        return "contract"
    return module.split(".")[0]


ALLOWED = {                       # layer -> layers it may import
    "contract": {"contract"},
    "games": {"contract", "games"},
    "mcts": {"contract", "mcts"},
    "frontends": {"contract", "games", "mcts", "frontends"},
    "benchmarks": {"contract", "games", "mcts", "frontends", "benchmarks"},
    "cli": {"contract", "games", "mcts", "frontends", "benchmarks"},
}


# Deprecated aliases kept for plug-ins at a name that moved across layers: each warns and
# names its replacement (the stable-contract rule), and is the only exception.
ALIASES = {"games.conformance": {"mcts"}}


def module_name(path):
    rel = path.relative_to(ROOT).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def imports(path):
    """Project modules imported anywhere in ``path`` (absolute names)."""
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            # "from games.go import board" imports the module games.go.board
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in ALL_MODULES else base
                     for a in node.names]
        else:
            continue
        found.update(n for n in names if n.split(".")[0] in PROJECT)
    return found


SOURCES = [p for d in ("games", "mcts", "frontends", "benchmarks") for p in (ROOT / d).rglob("*.py")
           if "__pycache__" not in p.parts]
SOURCES.append(ROOT / "cli.py")
ALL_MODULES = {module_name(p) for p in SOURCES}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_go_one_way(path):
    mine = layer(module_name(path))
    allowed = ALLOWED[mine] | ALIASES.get(module_name(path), set())
    bad = sorted(m for m in imports(path) if layer(m) not in allowed)
    assert not bad, f"{path.name} ({mine} layer) imports {bad}"


def test_the_layer_map_covers_every_module():
    assert {layer(m) for m in ALL_MODULES} == set(ALLOWED)
    assert CONTRACT <= ALL_MODULES
    assert "benchmarks.lab.move_agreement" in ALL_MODULES
    assert layer("benchmarks.lab.move_agreement") == "benchmarks"


def test_the_product_does_not_import_the_lab():
    product = [p for p in SOURCES if module_name(p).split(".")[:2] != ["benchmarks", "lab"]]
    bad = sorted(str(p.relative_to(ROOT)) for p in product
                 if any(m.startswith("benchmarks.lab") for m in imports(p)))
    assert not bad, f"{bad} import the lab (benchmarks.lab)"


def test_the_checker_sees_a_violation():
    # the search importing a concrete game must be caught
    assert layer("games.go.kernels") not in ALLOWED["mcts"]
    assert "games.go.board" in imports(ROOT / "games" / "go" / "kernels.py")
    assert "games.contract" in imports(ROOT / "mcts" / "search.py")


def test_mcts_names_no_concrete_game():
    for path in (ROOT / "mcts").rglob("*.py"):
        if "__pycache__" in path.parts:         # generated search modules name their game
            continue
        text = path.read_text().lower()
        for name in games.names():
            assert f"games.{name}" not in text and f"{name}." not in text, (path, name)
