"""What the house style promises about size, checked (issue 17): no function over 60 lines and
no class over 300 in `net/` and `pigeon_tui/`, so each room stays small enough to change safely.
A function or class counts from its `def`/`class` line to its last line, docstring and comments
included."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIMITS = {ast.FunctionDef: 60, ast.AsyncFunctionDef: 60, ast.ClassDef: 300}
CHECKED = ("net", "pigeon_tui")


def too_long(path: Path, root: Path = ROOT) -> list[str]:
    """`path`'s functions and classes over their limits, as `file:line name (n lines)`."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        limit = LIMITS.get(type(node))
        if limit is None:
            continue
        assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        assert node.end_lineno is not None
        n = node.end_lineno - node.lineno + 1
        if n > limit:
            out.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({n} lines, limit {limit})")
    return out


@pytest.mark.parametrize("package", CHECKED)
def test_no_function_over_60_lines_and_no_class_over_300(package: str) -> None:
    found = [line for path in sorted((ROOT / package).rglob("*.py")) for line in too_long(path)]
    assert not found, "split these along their seams:\n" + "\n".join(found)


def test_the_check_finds_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(60))
    (tmp_path / "long.py").write_text(f"def long():\n{body}\n")
    assert too_long(tmp_path / "long.py", tmp_path) == ["long.py:1 long (61 lines, limit 60)"]
