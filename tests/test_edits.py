"""The edit engine on plain text: operations in original coordinates, columns in
characters, diffs that apply, the fix vocabulary."""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest

from autograd_doctor.edits.apply import FixError, apply, build, transform
from autograd_doctor.edits.forms import atom, detached
from autograd_doctor.edits.operations import Delete, Insert, Move, Remedy, Replace, replace_node
from autograd_doctor.edits.strategies import STRATEGIES, recompute_where_read, with_keywords
from autograd_doctor.source import reading

SOURCE = """\
x = 1
for i in range(3):
    y = x + i
    print(y)
"""


def lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def test_operations_use_original_coordinates_in_any_order() -> None:
    ops = [
        Insert("f", 3, "x = x * 2", "    "),
        Replace("f", 4, 10, 4, 11, "(y)"),
        Move("f", 1, 1, 3, "    "),
    ]
    assert "".join(transform(lines(SOURCE), ops)) == (
        "for i in range(3):\n    x = x * 2\n    x = 1\n    y = x + i\n    print((y))\n")


def test_delete_and_multiline_insert() -> None:
    ops = [Delete("f", 4, 4), Insert("f", 3, "if x:\n    x = 0", "    ")]
    assert "".join(transform(lines(SOURCE), ops)) == (
        "x = 1\nfor i in range(3):\n    if x:\n        x = 0\n    y = x + i\n")


def test_an_insert_where_a_deletion_starts_survives_it() -> None:
    # A statement moved out of a block whose header line is deleted lands where the header was.
    ops = [Move("f", 3, 3, 2, ""), Delete("f", 2, 2)]
    assert "".join(transform(lines(SOURCE), ops)) == "x = 1\ny = x + i\n    print(y)\n"


def test_columns_count_characters_on_a_line_with_non_ascii_text(tmp_path: Path) -> None:
    prefix = 'print("héllo, 世界", '
    text = prefix + "h)\n"
    assert (len(prefix), len(prefix.encode())) == (19, 24)  # characters, UTF-8 bytes
    assert transform(lines(text), [Replace("f", 1, 19, 1, 20, "h.detach()")]) == [
        'print("héllo, 世界", h.detach())\n']
    script = tmp_path / "s.py"
    script.write_text(text, encoding="utf-8")
    node = ast.parse(text).body[0].value.args[1]  # type: ignore[attr-defined]
    assert node.col_offset == 24  # ast counts bytes
    op = replace_node(str(script), node, "h.detach()")
    assert (op.col, op.end_col) == (19, 20)
    assert transform(lines(text), [op]) == ['print("héllo, 世界", h.detach())\n']


def test_built_fix_applies_with_patch_and_from_its_edits(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(SOURCE)
    fix = build(Remedy("detach-at-boundary", "d", str(script), 3,
                       (Insert(str(script), 3, "x = 0", "    "),)))
    expected = SOURCE.replace("    y = x", "    x = 0\n    y = x")
    assert apply(fix) == {fix.edits[0].file: expected}
    subprocess.run(["patch", "-p1"], input=fix.diff, cwd=tmp_path, text=True, check=True,
                   capture_output=True)
    assert script.read_text() == expected


def test_detached_forms_follow_the_value_structure() -> None:
    assert detached("h") == "h.detach()"
    assert detached("a + b") == "(a + b).detach()"
    assert detached("hidden", "(T, T)") == "tuple(t.detach() for t in hidden)"
    assert detached("states", "[(T, T), (T, T)]") == (
        "[tuple(tt.detach() for tt in t) for t in states]")


def test_a_replacement_spanning_lines_gives_a_diff_that_patch_applies(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(SOURCE)
    wrapped = "with ctx():\n    for i in range(3):\n        y = x + i\n        print(y)"
    fix = build(Remedy("detach-on-store", "d", str(script), 2,
                       (Replace(str(script), 2, 0, 4, 12, wrapped),)))
    assert all(line[:1] in " +-@" for line in fix.diff.splitlines()[2:])
    subprocess.run(["patch", "-p1"], input=fix.diff, cwd=tmp_path, text=True, check=True,
                   capture_output=True)
    assert script.read_text() == "x = 1\n" + wrapped + "\n"


def test_atom_parenthesises_only_what_needs_it() -> None:
    assert atom("h") == "h" and atom("self.h[0]") == "self.h[0]" and atom("f(x)") == "f(x)"
    assert atom("a + b") == "(a + b)" and atom("a, b") == "(a, b)" and atom("-x") == "(-x)"


def test_with_keywords_keeps_the_users_layout(tmp_path: Path) -> None:
    text = ("loss.backward()\ng = grad(\n    out,\n    x,\n)\n"
            "loss.backward(retain_graph=True, inputs=p)\n")
    script = tmp_path / "s.py"
    script.write_text(text)
    calls = [n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Call)
             and ast.unparse(n.func) in ("loss.backward", "grad")]
    ops = [with_keywords(str(script), calls[0], add=("retain_graph=True",)),
           with_keywords(str(script), calls[1], add=("create_graph=True",)),
           with_keywords(str(script), calls[2], drop=("retain_graph",))]
    assert "".join(transform(lines(text), ops)) == (
        "loss.backward(retain_graph=True)\ng = grad(\n    out,\n    x, create_graph=True)\n"
        "loss.backward(inputs=p)\n")


MODEL = """\
class Net(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.emb = nn.Embedding(n, 4)
        self.pos = self.emb(torch.arange(n))

    def forward(self, x):
        return x + self.pos
"""


def test_a_value_set_up_once_is_computed_where_it_is_read(tmp_path: Path) -> None:
    def store_in(name: str, text: str) -> tuple[Path, ast.stmt]:
        script = tmp_path / name
        script.write_text(text)
        tree = reading.parse(str(script))
        assert tree is not None
        return script, next(n for n in ast.walk(tree) if isinstance(n, ast.Assign)
                            and ast.unparse(n.targets[0]) == "self.pos")

    script, store = store_in("m.py", MODEL)
    remedy = recompute_where_read(str(script), store, "self.pos")
    assert remedy is not None and remedy.strategy == "recompute-in-loop"
    assert "".join(transform(lines(MODEL), list(remedy.operations))) == MODEL.replace(
        "self.pos = self.emb(torch.arange(n))", "self.n = n").replace(
        "x + self.pos", "x + self.emb(torch.arange(self.n))")
    # `self.n` already means something else: the value cannot be rebuilt from it.
    taken = MODEL.replace("super().__init__()", "super().__init__()\n        self.n = 2 * n")
    script, store = store_in("taken.py", taken)
    assert recompute_where_read(str(script), store, "self.pos") is None


def test_a_fix_with_an_unknown_strategy_is_refused(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(SOURCE)
    assert "detach-at-boundary" in STRATEGIES
    with pytest.raises(FixError):
        build(Remedy("no-such-strategy", "d", str(script), 3, (Delete(str(script), 3, 3),)))


def test_an_edit_refuses_a_file_that_changed(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(SOURCE)
    fix = build(Remedy("out-of-place", "d", str(script), 3, (Delete(str(script), 3, 3),)))
    script.write_text(SOURCE.replace("y = x + i", "y = x - i"))
    with pytest.raises(FixError):
        apply(fix)
