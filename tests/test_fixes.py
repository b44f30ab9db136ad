"""The edit engine on plain text: operations in original coordinates, diffs that apply."""

from __future__ import annotations

import subprocess
from pathlib import Path

from autograd_doctor.diagnosis.remedy import Delete, Insert, Move, Remedy, Replace, detached
from autograd_doctor.fixes import apply, build, transform

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


def test_replace_counts_columns_in_utf8_bytes_like_ast() -> None:
    text = 'print("héllo", h)\n'
    # ast gives the column of `h` in bytes: 'print("héllo", ' is 16 bytes, 15 characters.
    assert transform(lines(text), [Replace("f", 1, 16, 1, 17, "h.detach()")]) == [
        'print("héllo", h.detach())\n']


def test_built_fix_applies_with_patch_and_from_its_edits(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(SOURCE)
    fix = build(Remedy("s", "d", str(script), 3, (Insert(str(script), 3, "x = 0", "    "),)))
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
    fix = build(Remedy("s", "d", str(script), 2, (Replace(str(script), 2, 0, 4, 12, wrapped),)))
    assert all(line[:1] in " +-@" for line in fix.diff.splitlines()[2:])
    subprocess.run(["patch", "-p1"], input=fix.diff, cwd=tmp_path, text=True, check=True,
                   capture_output=True)
    assert script.read_text() == "x = 1\n" + wrapped + "\n"
