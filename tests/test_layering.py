"""The package's layers: imports run down them, never in a circle.

The graph is read from the source (every ``import``, at module level or
inside a function), so a lazy import cannot hide an arrow.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

SOURCE = Path(__file__).parents[1] / "src"

STANDARD_LIBRARY_ONLY = ("miau.engine", "miau.packs")
"""These run in the browser's Python too: nothing of Miau above them, nothing outside it."""


def module_name(path: Path) -> str:
    """The dotted name of the module in ``path``."""
    parts = path.relative_to(SOURCE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(path: Path) -> tuple[str, ...]:
    """Every module name ``path`` imports, relative imports made absolute (read once a run)."""
    return _imported_names(path)


@cache
def _imported_names(path: Path) -> tuple[str, ...]:
    return tuple(_each_imported_name(path))


def _each_imported_name(path: Path) -> Iterator[str]:
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # "from package import module" imports the module; "from module import name", the module.
            yield from (f"{base}.{alias.name}" for alias in node.names)
            yield base


def import_graph() -> dict[str, set[str]]:
    """Each module of ``src/miau`` and the modules of ``src/miau`` it imports."""
    paths = {module_name(path): path for path in sorted(SOURCE.rglob("*.py"))}
    return {
        name: {other for other in imported_names(path) if other in paths and other != name}
        for name, path in paths.items()
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = lowest[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                lowest[module] = min(lowest[module], lowest[other])
            elif other in on_stack:
                lowest[module] = min(lowest[module], index[other])
        if lowest[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_the_import_graph_has_no_cycle() -> None:
    graph = import_graph()
    assert "miau.server.store.sql" in graph  # the graph was read at all
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle_through_a_lazy_import() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_the_server_never_imports_the_command_line() -> None:
    arrows = [
        (module, other)
        for module, others in import_graph().items()
        if module.startswith("miau.server")
        for other in others
        if other == "miau.cli" or other.startswith("miau.cli.")
    ]
    assert arrows == []


def test_the_engine_and_the_loader_import_no_other_part_of_miau() -> None:
    arrows = [
        (module, other)
        for module, others in import_graph().items()
        if module.startswith(STANDARD_LIBRARY_ONLY)
        for other in others
        if not other.startswith(STANDARD_LIBRARY_ONLY) and other != "miau"
    ]
    assert arrows == []


def test_the_product_never_imports_the_tests() -> None:
    importers = sorted(
        module_name(path)
        for path in SOURCE.rglob("*.py")
        if any(name == "tests" or name.startswith("tests.") for name in imported_names(path))
    )
    assert importers == []


IN_THE_PAGE = (
    "miau.engine",
    "miau.packs",
    "miau.solver",
    "miau.generate",
    "miau.worlds",
    "miau.play",
)
"""The packages the static site runs under Pyodide (``miau.site.build`` zips them)."""


def outside_imports(prefixes: tuple[str, ...]) -> list[tuple[str, str]]:
    """The imports of modules under ``prefixes`` that are neither Miau's nor the standard library's."""
    paths = {module_name(path): path for path in sorted(SOURCE.rglob("*.py"))}
    return [
        (module, other)
        for module, path in paths.items()
        if module.startswith(prefixes)
        for other in imported_names(path)
        if other.split(".")[0] not in (*sys.stdlib_module_names, "miau") and other
    ]


def test_the_packages_the_page_runs_need_only_the_standard_library() -> None:
    assert "miau.play.service" in import_graph()  # the play layer was read at all
    assert outside_imports(IN_THE_PAGE) == []


def test_the_packages_the_page_runs_import_only_each_other() -> None:
    arrows = [
        (module, other)
        for module, others in import_graph().items()
        if module.startswith(IN_THE_PAGE)
        for other in others
        if not other.startswith(IN_THE_PAGE) and other != "miau"
    ]
    assert arrows == []


def test_the_standard_library_check_sees_the_servers_third_party_imports() -> None:
    seen = {other.split(".")[0] for _, other in outside_imports(("miau.server",))}
    assert {"anyio", "starlette"} <= seen


def test_the_two_hosts_never_import_each_other() -> None:
    arrows = [
        (module, other)
        for module, others in import_graph().items()
        for host, other_host in (("miau.site", "miau.server"), ("miau.server", "miau.site"))
        if module == host or module.startswith(host + ".")
        for other in others
        if other == other_host or other.startswith(other_host + ".")
    ]
    assert arrows == []
