"""The torch-free source layer on plain text: where names are assigned and read, which loop
and block hold a statement, and the shapes of code that matter to autograd."""

from __future__ import annotations

import ast
from pathlib import Path

from autograd_doctor.source import patterns, reading
from autograd_doctor.source.places import FrameInfo, place

TRAIN = """\
import torch


def train(model, opt, h=None):
    total = 0
    for step in range(3):
        out, h = model(x, h)
        loss = out.mean()
        total += loss
        with torch.no_grad():
            probe = model(x)
        loss.backward()
        opt.step()
    return total
"""


def tree() -> ast.Module:
    return ast.parse(TRAIN)


def test_stores_reads_and_loops_are_found_by_name(tmp_path: Path) -> None:
    file = tmp_path / "train.py"
    file.write_text(TRAIN)
    scope = reading.scope_of(str(file), "train", 4)
    assert isinstance(scope, ast.FunctionDef)
    assert [s.lineno for s in reading.stores(scope, "h")] == [7]
    assert [r.lineno for r in reading.reads(scope, "h")] == [7]
    assert [loop.lineno for loop in reading.loops_around(scope, 8)] == [6]
    assert [b.lineno for b in reading.blocks_around(scope, 11)] == [10]
    assert reading.may_be_none(scope, "h") and not reading.may_be_none(scope, "total")
    assert reading.statement_at(scope, 12).lineno == 12  # type: ignore[union-attr]


def test_a_frame_is_placed_in_its_loop(tmp_path: Path) -> None:
    file = tmp_path / "train.py"
    file.write_text(TRAIN)
    placement = place(FrameInfo(str(file), 12, "train", 4), "total")
    assert placement is not None and placement.loop is not None
    assert [s.lineno for s in placement.stores_in_loop] == [9]
    assert [s.lineno for s in placement.stores_before_loop] == [5]


def test_blocks_and_siblings() -> None:
    fn = tree().body[1]
    assert isinstance(fn, ast.FunctionDef)
    loop = fn.body[1]
    assert isinstance(loop, ast.For)
    backward, step = loop.body[4], loop.body[5]
    assert reading.block_of(fn, backward) is loop.body
    assert reading.siblings(fn, backward, step)
    assert not reading.siblings(fn, backward, fn.body[0])
    inner = loop.body[3].body[0]  # type: ignore[attr-defined]
    assert reading.sibling_holding(fn, backward, inner) is loop.body[3]


def test_running_totals_and_estimates() -> None:
    def stmt(code: str) -> ast.stmt:
        return ast.parse(code).body[0]

    assert patterns.accumulates(stmt("total += loss"), "total")
    assert patterns.accumulates(stmt("total = total + loss"), "total")
    assert not patterns.accumulates(stmt("total = loss"), "total")
    assert patterns.running_estimate(stmt("b = 0.9 * b + 0.1 * r"), "b")
    assert not patterns.running_estimate(stmt("b = 0.9 * b + 0.1 * b"), "b")
    # An estimate updated in place by a chain of methods, the adding calls found.
    chain = patterns.added_in_place(stmt("self.rate.mul_(d).add_((1 - d) * x)"))
    assert chain is not None and reading.text(chain[0]) == "self.rate"
    assert [c.func.attr for c in chain[1]] == ["add_"]  # type: ignore[attr-defined]
    assert patterns.added_in_place(stmt("self.rate.mul_(d)")) is None  # scales, adds nothing
    assert patterns.added_in_place(stmt("x = y.add_(z)")) is None  # not a statement of its own
    assert patterns.feeds_call(ast.parse("self.rnn(x, self.h)").body[0].value,  # type: ignore[attr-defined]
                               "self.h")
    assert not patterns.feeds_call(ast.parse("torch.cat([self.h, k])").body[0].value,  # type: ignore[attr-defined]
                                   "self.h")


def test_where_values_leave_autograd() -> None:
    def expr(code: str) -> ast.expr:
        return ast.parse(code, mode="eval").body

    cut = patterns.history_cut(expr("f(x).detach()"))
    assert cut is not None and cut[0] == "detach" and ast.unparse(cut[1]) == "f(x)"
    cut = patterns.history_cut(expr("out.data"))
    assert cut is not None and cut[0] == "data"
    assert patterns.leaves_torch(expr("loss.item()"))
    assert patterns.leaves_torch(expr("torch.tensor(v)"))
    assert patterns.non_differentiable(expr("logits.argmax(1)"))
    assert patterns.non_differentiable(expr("a > b"))
    assert patterns.is_no_grad(expr("torch.no_grad()"))
    assert ast.unparse(patterns.stripped_copy(expr("loss.clone().detach()"))) == "loss"  # type: ignore[arg-type]
    unwrapped = patterns.unwrap(expr("torch.tensor(np.clip(f(x).detach().numpy(), 0, 1))"))
    assert unwrapped is not None and ast.unparse(unwrapped) == "torch.clamp(f(x), 0, 1)"
    assert patterns.unwrap(expr("torch.tensor(np.median(f(x).numpy()))")) is None


def test_what_backward_is_called_on() -> None:
    def stmt(code: str) -> ast.stmt:
        return ast.parse(code).body[0]

    for code, target in (("loss.backward()", "loss"),
                         ("scaler.scale(loss).backward()", "loss"),
                         ("torch.autograd.backward(total)", "total"),
                         ("g = torch.autograd.grad(out, x)", "out")):
        found = patterns.backwarded(stmt(code))
        assert found is not None and ast.unparse(found) == target, code


def test_containers_trimmed_or_read_whole() -> None:
    code = ast.parse("q.append(k)\nq.pop(0)\nloss = torch.stack(buf).sum()\n")
    assert patterns.trims(code, "q") and not patterns.trims(code, "buf")
    assert patterns.reads_whole(code, "buf") and not patterns.reads_whole(code, "q")


def test_a_name_is_translated_through_the_call_that_hands_it_over(tmp_path: Path) -> None:
    from autograd_doctor.diagnosis.no_grad_fn.evidence import as_passed

    code = ("def freeze(model, depth=1):\n"
            "    for m in model.modules():\n"
            "        m.requires_grad_(False)\n"
            "\n"
            "def finetune(clf):\n"
            "    freeze(clf)\n"
            "    freeze(depth=2, model=clf)\n")
    path = tmp_path / "freezing.py"
    path.write_text(code)
    tree = reading.parse(str(path))
    assert tree is not None
    inner = next(n for n in ast.walk(tree) if isinstance(n, ast.Expr)
                 and "requires_grad_" in ast.unparse(n))
    outer = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)
                 and n.name == "finetune")
    assert as_passed(str(path), inner, outer, "clf") == "model"
    assert as_passed(str(path), inner, outer, "other") == "other"  # not handed over


def test_a_numpy_round_trip_is_written_in_torch() -> None:
    def translated(code: str) -> str:
        found = patterns.in_torch(ast.parse(code).body[0])
        assert found is not None, code
        return ast.unparse(found)

    # The dtype of the re-wrap stays, as torch's own: `np.float32` is no torch dtype.
    assert translated("y = torch.from_numpy(np.asarray(1.0 - s, dtype=np.float32))") == \
        "y = (1.0 - s).to(torch.float32)"
    assert translated("y = torch.tensor(v.item(), dtype=torch.float64)") == \
        "y = v.to(torch.float64)"
