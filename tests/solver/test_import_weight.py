"""The library packages import with the standard library alone, and import little.

Each check runs in a fresh interpreter, so that modules other tests have
already imported cannot hide a dependency.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

TUTORIAL = Path(__file__).parents[2] / "packs" / "tutorial.json"


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_importing_the_solver_does_not_load_multiprocessing() -> None:
    result = _run(
        """
        import sys
        import miau.solver
        loaded = sorted(
            name for name in sys.modules
            if name.split(".")[0] in ("multiprocessing", "concurrent")
        )
        print(loaded)
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_engine_packs_and_solver_import_and_load_a_pack_without_rich() -> None:
    result = _run(
        f"""
        import sys

        class NoRich:
            def find_spec(self, name, path=None, target=None):
                if name == "rich" or name.startswith("rich."):
                    raise ImportError(name + " is blocked for this test")
                return None

        sys.meta_path.insert(0, NoRich())
        try:
            import rich  # noqa: F401
        except ImportError:
            pass
        else:
            raise SystemExit("the blocker did not block rich")
        import miau.engine, miau.packs, miau.solver
        pack = miau.packs.load_pack({str(TUTORIAL)!r})
        first = pack.levels[0]
        print(miau.solver.solve(first.data).outcome.value)
        print(sorted(name for name in sys.modules if name.split(".")[0] == "rich"))
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["solved", "[]"]
