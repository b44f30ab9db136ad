"""Which tensors autograd saved for backward, as the source shows: results of ops that keep
their output (`exp`, `sigmoid`, `softmax`, `relu`), operands of ops that keep their inputs
(`*`, `@`, `log`, a layer). Shared by the in-place rules (AGD120, AGD121).
"""

from __future__ import annotations

import ast

from autograd_doctor.lint import facts as f
from autograd_doctor.source import reading

# Ops that keep their result for backward, and ops that keep their inputs.
_SAVE_RESULT = frozenset({"exp", "sigmoid", "tanh", "softmax", "relu", "sqrt", "rsqrt",
                          "elu", "exp2", "expm1", "reciprocal", "selu"})
_SAVE_INPUT = frozenset({"mul", "div", "matmul", "mm", "bmm", "pow", "log", "log1p", "log2",
                         "sin", "cos", "norm", "normalize", "linear", "conv1d", "conv2d",
                         "layer_norm", "silu", "gelu", "softplus", "atan", "einsum",
                         "cosine_similarity", "cdist", "square", "prod", "logsumexp",
                         "log_softmax", "mish", "abs", "std", "var", "clamp", "clip",
                         # losses that keep their input (and target) for backward;
                         # cross_entropy keeps only its log-softmax, not the logits
                         "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss",
                         "binary_cross_entropy", "binary_cross_entropy_with_logits",
                         "kl_div", "nll_loss", "poisson_nll_loss"})
# Views share their base's storage and version counter: a write into a view of a saved
# result is a write into the saved result.
_VIEWS = frozenset({"squeeze", "unsqueeze", "view", "view_as", "reshape", "transpose",
                    "permute", "flatten", "expand", "expand_as", "t", "narrow", "select",
                    "unflatten", "movedim", "diagonal", "unbind", "chunk", "split"})
_SAVING_OPERATORS = (ast.Mult, ast.Div, ast.MatMult, ast.Pow)
OUT_OF_PLACE = {"add_": "add", "sub_": "sub", "mul_": "mul", "div_": "div",
                 "clamp_": "clamp", "clamp_min_": "clamp_min", "clamp_max_": "clamp_max",
                 "masked_fill_": "masked_fill", "relu_": "relu", "sigmoid_": "sigmoid",
                 "tanh_": "tanh", "exp_": "exp", "copy_": "", "fill_": "", "zero_": "",
                 "index_fill_": "index_fill", "masked_scatter_": "masked_scatter",
                 "scatter_": "scatter", "abs_": "abs", "neg_": "neg", "pow_": "pow",
                 "sqrt_": "sqrt", "log_": "log", "clip_": "clip", "addcmul_": "addcmul",
                 "addcdiv_": "addcdiv", "lerp_": "lerp", "uniform_": "", "normal_": ""}


def written(stmt: ast.stmt) -> tuple[str, ast.AST] | None:
    """(tensor, node) of an in-place write: `x += y`, `x[i] = y`, `x.clamp_(...)`."""
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, (ast.Name, ast.Attribute)):
        return reading.text(stmt.target), stmt
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
            stmt.targets[0], ast.Subscript) and isinstance(stmt.targets[0].value,
                                                          (ast.Name, ast.Attribute)):
        return reading.text(stmt.targets[0].value), stmt
    for node in f.nodes_of(stmt):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in OUT_OF_PLACE and isinstance(node.func.value,
                                                               (ast.Name, ast.Attribute)):
            return reading.text(node.func.value), node
    return None


def saved_by(facts: f.FileFacts, scope: ast.AST, body: list[ast.stmt], write: ast.stmt,
              name: str) -> ast.stmt | None:
    """The statement that saved `name` for a backward still to come, if any."""
    if name.endswith(".data") or ".data." in name:
        return None
    # `x += f(norm(x))` or `x.div_(x.norm())`: read through an op that keeps it, then
    # overwritten, in one statement.
    self_saving = isinstance(write, ast.AugAssign) and saves_input(facts, write.value, name) \
        or _call_saves_receiver(facts, write, name)
    if not self_saving and not any(s.lineno < write.lineno and name in {
            reading.text(t) for t in reading.targets(s)} for s in body):
        return None  # nothing earlier in this function made it: cheap way out
    defs = f.flow(body, until=write)
    made = defs.current.get(name)
    history = made is not None and (f.makes_history(facts, f.value_of(made)) or bool(
        f.history_statements(facts, defs, defs.of(f.value_of(made)))))
    if self_saving and (history or f.makes_history(facts, f.value_of(write))
                        or isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef))
                        and name in reading.parameters(scope)):
        return write  # `x += layer(norm(x))`: read, saved, then overwritten
    if made is None or not history or made is write:
        return None
    if isinstance(made, ast.Assign) and saves_result(made.value):
        saver: ast.stmt = made
        if not (isinstance(made.value, ast.Call) and _op(made.value) in _SAVE_RESULT) \
                and not _used_for_gradients(scope, body, made, name):
            return None  # a view of a saved result kept for display, off the loss's graph
    else:
        readers = [s for s in body if made.lineno < s.lineno < write.lineno
                   and saves_input(facts, f.value_of(s), name)]
        if not readers:
            return None
        saver = readers[0]
    if any(w is not made and saver.lineno <= getattr(w, "lineno", 0) < write.lineno
           for w in f.writes(scope, name)):
        return None
    return saver


def _used_for_gradients(scope: ast.AST, body: list[ast.stmt], made: ast.stmt,
                        name: str) -> bool:
    """Does what `made` stored feed a backward of this function, or leave it as a result?"""
    if any(f.reaches(body, made, b) for b in f.backwards(scope)):
        return True
    return any(isinstance(n, ast.Return) and n.value is not None and any(
        isinstance(m, ast.Name) and m.id == name for m in ast.walk(n.value))
        for n in f.own(scope))


def _call_saves_receiver(facts: f.FileFacts, write: ast.stmt, name: str) -> bool:
    calls = [n for n in f.nodes_of(write) if isinstance(n, ast.Call) and isinstance(
        n.func, ast.Attribute) and n.func.attr in OUT_OF_PLACE and reading.text(
        n.func.value) == name]
    return any(saves_input(facts, a, name) for c in calls
               for a in list(c.args) + [k.value for k in c.keywords])


def saves_result(value: ast.expr) -> bool:
    while True:
        if isinstance(value, ast.Subscript):
            value = value.value
        elif isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                and value.func.attr in _VIEWS:
            value = value.func.value
        else:
            break
    return isinstance(value, ast.Call) and _op(value) in _SAVE_RESULT


def saves_input(facts: f.FileFacts, value: ast.AST, name: str) -> bool:
    for node in f.live_nodes(value):
        operands: list[ast.AST] = []
        if isinstance(node, ast.BinOp) and isinstance(node.op, _SAVING_OPERATORS):
            operands = [node.left, node.right]
        elif isinstance(node, ast.Call) and (_op(node) in _SAVE_INPUT | _SAVE_RESULT
                                             or f.is_forward(facts, node)):
            operands = list(node.args)
            if isinstance(node.func, ast.Attribute) and _op(node) in _SAVE_INPUT:
                operands.append(node.func.value)  # `x.pow(2)` keeps x
        if any(reading.text(o) == name for o in operands):
            return True
    return False


def _op(call: ast.Call) -> str:
    return call.func.attr if isinstance(call.func, ast.Attribute) else reading.text(
        call.func).rsplit(".", 1)[-1]


