"""Shapes of code that matter to autograd, recognised in syntax trees: where a value leaves
the graph (`.detach()`, `.data`, `.item()`, NumPy, `torch.tensor(...)`, `no_grad`), ops with
no gradient, running totals and estimates, in-place writes, backward calls.

Shared by diagnosis (to place and edit what the graph showed) and lint (to find it before
the program runs). Torch-free: names of torch functions are text here.
"""

from __future__ import annotations

import ast
import copy

from autograd_doctor.source import reading

NO_GRAD = ("torch.no_grad()", "torch.inference_mode()", "torch.set_grad_enabled(False)",
           "no_grad()", "inference_mode()")
NO_GRAD_DECORATORS = NO_GRAD + ("torch.no_grad", "torch.inference_mode")
REWRAP_CALLS = ("torch.tensor", "torch.as_tensor", "torch.from_numpy", "torch.Tensor",
                "torch.FloatTensor", "Variable", "autograd.Variable", "torch.autograd.Variable")
LEAVING_METHODS = ("item", "numpy", "tolist")
NON_DIFFERENTIABLE = ("argmax", "argmin", "round", "floor", "ceil", "sign", "long", "int",
                      "bool", "argsort", "searchsorted", "bucketize")
SAVED_ATTRIBUTES = ("saved_tensors", "saved_variables")
# Calls that create state rather than compute it: never the store that holds history.
FACTORIES = ("torch.zeros", "torch.ones", "torch.empty", "torch.randn", "torch.rand",
             "torch.full", "torch.tensor", "torch.zeros_like", "torch.ones_like",
             "torch.randn_like", "torch.empty_like", "None", "[]", "{}", "list()", "dict()")
INPLACE_UPDATES = ("copy_", "mul_", "add_", "sub_", "lerp_", "addcmul_", "div_")
# Calls that read a whole container (not one element of it).
WHOLE_READS = ("torch.cat", "torch.stack", "sum", "zip", "list", "tuple", "enumerate",
               "torch.tensor", "reversed")
NUMPY = ("np", "numpy")
# NumPy functions with a torch function of the same meaning (the torch name when it differs).
NUMPY_IN_TORCH = {"clip": "clamp", "absolute": "abs", "power": "pow", "concatenate": "cat",
                  "abs": "abs", "exp": "exp", "log": "log", "log1p": "log1p", "sqrt": "sqrt",
                  "square": "square", "mean": "mean", "sum": "sum", "prod": "prod",
                  "maximum": "maximum", "minimum": "minimum", "tanh": "tanh", "sin": "sin",
                  "cos": "cos", "where": "where", "stack": "stack", "max": "amax", "min": "amin",
                  "matmul": "matmul", "dot": "dot", "var": "var", "std": "std",
                  "log10": "log10", "log2": "log2", "exp2": "exp2", "sign": "sign",
                  "outer": "outer", "einsum": "einsum", "sigmoid": "sigmoid",
                  "array": "as_tensor", "asarray": "as_tensor", "float32": "float32",
                  "float64": "float64", "zeros_like": "zeros_like", "ones_like": "ones_like"}
# NumPy keyword arguments under their torch names.
NUMPY_KEYWORDS = {"axis": "dim", "keepdims": "keepdim", "a_min": "min", "a_max": "max"}


def method_name(call: ast.Call) -> str:
    """`detach` for `x.detach()`, `argmax` for `torch.argmax(x)`."""
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else reading.text(func).rsplit(".", 1)[-1]


def history_cut(node: ast.AST) -> tuple[str, ast.expr] | None:
    """("detach", x) for `x.detach()`, ("data", x) for a read of `x.data`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr == "detach" and not node.args:
        return "detach", node.func.value
    if isinstance(node, ast.Attribute) and node.attr == "data" and isinstance(node.ctx,
                                                                              ast.Load):
        return "data", node.value
    return None


def leaves_torch(node: ast.AST) -> bool:
    """`x.item()`, `x.numpy()`, `x.tolist()`, or a re-wrap `torch.tensor(...)`."""
    if not isinstance(node, ast.Call):
        return False
    method = node.func.attr if isinstance(node.func, ast.Attribute) else ""
    return reading.text(node.func) in REWRAP_CALLS + ("np.array", "numpy.array") or \
        method in LEAVING_METHODS


def non_differentiable(node: ast.AST) -> bool:
    """An op whose result has no gradient: a comparison, argmax, round, a cast to ints."""
    if isinstance(node, ast.Compare):
        return True
    return isinstance(node, ast.Call) and method_name(node) in NON_DIFFERENTIABLE


def has_non_differentiable(node: ast.AST) -> bool:
    return any(non_differentiable(n) for n in ast.walk(node))


def is_no_grad(context: ast.expr) -> bool:
    """A `with` item or decorator that turns recording off."""
    return reading.text(context) in NO_GRAD_DECORATORS


def is_saved_read(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and (
        node.attr.startswith("_saved_") or node.attr in SAVED_ATTRIBUTES)


def creates(value: ast.expr) -> bool:
    """A factory call or a literal: a store that makes state, never one that holds history."""
    return reading.text(value).startswith(FACTORIES) or isinstance(value, ast.Constant)


_ADDS_IN_PLACE = frozenset({"add_", "sub_", "lerp_", "addcmul_", "addcdiv_"})
_SCALES_IN_PLACE = frozenset({"mul_", "div_"})


def added_in_place(stmt: ast.stmt) -> tuple[ast.expr, list[ast.Call]] | None:
    """`rate.mul_(d).add_((1 - d) * x)`, `ema.lerp_(x, w)`: a running value updated in place
    by a chain of in-place methods that adds something: the value and the adding calls."""
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    adds: list[ast.Call] = []
    while isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and (
            call.func.attr in _ADDS_IN_PLACE or call.func.attr in _SCALES_IN_PLACE):
        if call.func.attr in _ADDS_IN_PLACE:
            adds.append(call)
        call = call.func.value
    return (call, adds) if adds and isinstance(call, (ast.Name, ast.Attribute)) else None


def accumulates(stmt: ast.stmt, expression: str) -> bool:
    """`total += x` or `total = total + x`: a running sum rather than a state update."""
    if isinstance(stmt, ast.AugAssign):
        return isinstance(stmt.op, (ast.Add, ast.Sub)) and reading.text(stmt.target) == expression
    if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.BinOp):
        value = stmt.value
        if isinstance(value.op, ast.Sub):
            return expression in (reading.text(value.left), reading.text(value.right))
        return expression in (reading.text(t) for t in _summands(value))
    return False


def _summands(value: ast.expr) -> list[ast.expr]:
    """The terms of a sum as written (`loss + a + b` is `(loss + a) + b`: loss, a, b). A
    difference inside is one term (`x - lr * g + noise` steps `x`, it sums nothing)."""
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        return [*_summands(value.left), value.right]
    return [value]


def running_estimate(stmt: ast.stmt, expression: str) -> bool:
    """`x = a * x + b * y`: an exponential moving average of something else (also when the
    first value starts it: `x = y if x is None else a * x + b * y`)."""
    value = getattr(stmt, "value", None)
    if isinstance(value, ast.IfExp):
        value = next((v for v in (value.orelse, value.body)
                      if expression in reading.names_in(v) or reading.text(v) == expression
                      or expression in reading.text(v)), value.orelse)
    if not isinstance(stmt, ast.Assign) or not isinstance(value, ast.BinOp) or not isinstance(
            value.op, ast.Add):
        return False
    sides = [value.left, value.right]
    decayed = [s for s in sides if isinstance(s, ast.BinOp) and isinstance(s.op, ast.Mult)
               and expression in (reading.text(s.left), reading.text(s.right))]
    return len(decayed) == 1 and all(
        expression not in reading.names_in(s) for s in sides if s is not decayed[0])


# Calls that combine tensors rather than run a model: `torch.cat([self.bank, k])` keeps a
# store (stored-state), `self.rnn(x, self.h)` feeds state back (carried-state).
_NOT_A_MODEL = ("torch.", "F.", "np.", "numpy.", "math.")
_BUILTINS = {"tuple", "list", "sum", "max", "min", "len", "dict", "float", "int"}


def feeds_call(value: ast.AST, expression: str) -> bool:
    """Does `value` pass `expression` to a model-like call (`self.rnn(x, self.h)`)?"""
    for node in ast.walk(value):
        if isinstance(node, ast.Call):
            func = reading.text(node.func)
            if func.startswith(_NOT_A_MODEL) or func in _BUILTINS or func.startswith(
                    expression + "."):
                continue
            args = list(node.args) + [k.value for k in node.keywords]
            for arg in args:
                if expression in reading.names_in(arg) or reading.text(arg) == expression:
                    return True
    return False


def item_calls(tree: ast.AST, name: str) -> list[ast.Call]:
    """`name.item()` calls: they break once `name` holds a Python number."""
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func,
            ast.Attribute) and n.func.attr == "item" and not n.args
            and reading.text(n.func.value) == name]


def trims(tree: ast.AST, attr: str) -> bool:
    """`q.pop(0)`, `del q[0]`, `q = q[-K:]`: the container is kept bounded, as a bank is."""
    def last(node: ast.AST) -> str:
        return reading.text(node).rsplit(".", 1)[-1]

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("pop", "popleft") and last(node.func.value) == attr:
            return True
        if isinstance(node, ast.Delete) and any(
                isinstance(t, ast.Subscript) and last(t.value) == attr
                and not isinstance(t.slice, ast.Slice) for t in node.targets):
            return True
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Subscript) and any(
                last(t) == attr for t in node.targets) and last(node.value.value) == attr:
            return True
    return False


def reads_whole(tree: ast.AST, attr: str) -> bool:
    """Is the container read as a whole (`torch.stack(buf)`, `for x in buf`, `zip(buf, ...)`)
    rather than one element or a slice of it?"""
    for node in ast.walk(tree):
        args: list[ast.expr] = []
        if isinstance(node, ast.Call) and reading.text(node.func) in WHOLE_READS:
            args = list(node.args)
        elif isinstance(node, (ast.For, ast.comprehension)):
            args = [node.iter]
        if any(reading.text(a).rsplit(".", 1)[-1] == attr and not isinstance(a, ast.Subscript)
               for a in args):
            return True
    return False


_COPY = ("clone", "detach", "requires_grad_", "item", "data")


def stripped_copy(value: ast.expr) -> ast.expr | None:
    """`loss` in `loss.clone().detach()` / `loss.data` / `loss.detach().requires_grad_()`:
    the tensor a detached copy was made of."""
    inner, stripped = value, False
    while isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) \
            and inner.func.attr in _COPY:
        inner, stripped = inner.func.value, True
    while isinstance(inner, ast.Attribute) and inner.attr == "data":
        inner, stripped = inner.value, True
    return inner if stripped and isinstance(inner, (ast.Name, ast.Attribute)) else None


def regrad_cut(value: ast.expr) -> tuple[ast.expr, ast.expr] | None:
    """The outermost `x.data[.requires_grad_()]` / `x.detach()[...]` in `value`, and what
    to keep instead (x)."""
    for node in ast.walk(value):
        inner: ast.AST = node
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "requires_grad_":
            inner = node.func.value
        found = history_cut(inner)
        if found is not None and isinstance(node, ast.expr):
            return node, found[1]
    return None


def backwarded(stmt: ast.stmt) -> ast.expr | None:
    """What a statement calls backward on: X in `X.backward()`, `torch.autograd.backward(X)`,
    `scaler.scale(X).backward()`, `torch.autograd.grad(X, ...)`."""
    for node in ast.walk(stmt):
        if not isinstance(node, ast.Call):
            continue
        func = reading.text(node.func)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "backward" and \
                not func.startswith("torch.autograd"):
            target = node.func.value
            if isinstance(target, ast.Call) and target.args and reading.text(
                    target.func).endswith(".scale"):
                return target.args[0]
            return target
        if func in ("torch.autograd.backward", "torch.autograd.grad", "autograd.grad",
                    "autograd.backward") and node.args:
            return node.args[0]
    return None


def backward_call(stmt: ast.stmt) -> ast.Call | None:
    """The `X.backward(...)` call in a statement."""
    for node in ast.walk(stmt):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "backward":
            return node
    return None


def keyword_call(stmt: ast.stmt, keyword: str) -> ast.Call | None:
    """The first call in a statement that passes `keyword=`."""
    return next((n for n in ast.walk(stmt) if isinstance(n, ast.Call)
                 and any(k.arg == keyword for k in n.keywords)), None)


def unwrap(node: ast.AST) -> ast.expr | None:
    """`torch.tensor(np.clip(f(x).detach().numpy(), 0, None))` -> `torch.clamp(f(x), 0,
    None)`: the computation kept in torch. None when it cannot be written in torch."""
    if not isinstance(node, ast.Call) or not node.args or reading.text(node.func) not in (
            REWRAP_CALLS):
        return None
    inner = _InTorch().visit(copy.deepcopy(node.args[0]))
    names = {n.id for n in ast.walk(inner) if isinstance(n, ast.Name)}
    text = reading.text(node.args[0])
    left = any(f".{m}()" in text for m in _LEAVING) or ".data" in text
    return inner if left and not names & set(NUMPY) else None


_LEAVING = ("item", "numpy", "tolist", "cpu", "detach", "clone")


def in_torch(stmt: ast.stmt, stack: bool = False) -> ast.stmt | None:
    """A statement of a NumPy / plain-number round trip written in torch instead (what a
    helper computing a loss in NumPy becomes), or None when nothing in it leaves torch.
    Every value stays a tensor: the trip out (`.detach().cpu().numpy()`, `.item()`,
    `float(...)`), NumPy functions and their keywords, and the way back in
    (`torch.tensor(...)` around a computed value) are all translated."""
    new = _InTorch(rewrap=True, stack=stack).visit(copy.deepcopy(stmt))
    return new if ast.dump(new) != ast.dump(stmt) else None


def _literal(node: ast.expr) -> bool:
    return all(isinstance(n, (ast.Constant, ast.List, ast.Tuple, ast.UnaryOp, ast.USub,
                              ast.Load)) for n in ast.walk(node))


_BUILDERS = ("array", "asarray", "zeros", "ones", "full", "arange", "linspace", "eye",
             "stack", "concatenate", "zeros_like", "ones_like")


class _InTorch(ast.NodeTransformer):
    def __init__(self, rewrap: bool = False, stack: bool = False) -> None:
        self.rewrap = rewrap  # also drop re-wraps and float() (a whole statement in torch)
        self.stack = stack  # a re-wrap of a list becomes torch.stack (one value per element)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _LEAVING and not node.args:
            return func.value
        # `np.log(2 * np.pi)` is a number and stays one; `np.array([0.1, 0.9])` is an array
        # the translated code multiplies tensors by.
        constant = isinstance(func, ast.Attribute) and func.attr not in _BUILDERS and not {
            n.id for a in [*node.args, *(k.value for k in node.keywords)]
            for n in ast.walk(a) if isinstance(n, ast.Name)} - {*NUMPY, "math"}
        bound = next((i for i, a in enumerate(node.args) if _literal(a)), None) \
            if len(node.args) == 2 and not node.keywords else None
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and func.value.id in NUMPY and func.attr in ("maximum", "minimum") \
                and bound is not None and not constant:
            # `np.maximum(x, 0.0)`: torch.maximum takes tensors only; a number is a clamp.
            side = "min" if func.attr == "maximum" else "max"
            return ast.Call(ast.Attribute(ast.Name("torch", ast.Load()), "clamp", ast.Load()),
                            [node.args[1 - bound]], [ast.keyword(side, node.args[bound])])
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and func.value.id in NUMPY and func.attr in NUMPY_IN_TORCH and not constant:
            node.func = ast.Attribute(ast.Name("torch", ast.Load()),
                                      NUMPY_IN_TORCH[func.attr], ast.Load())
            if func.attr == "where" and node.args and isinstance(node.args[0], ast.Name):
                # The mask may still be an array from outside the round trip.
                node.args[0] = ast.Call(ast.Attribute(ast.Name("torch", ast.Load()),
                                                      "as_tensor", ast.Load()),
                                        [node.args[0]], [])
        elif isinstance(func, ast.Attribute) and func.attr in ("max", "min") and any(
                k.arg == "axis" for k in node.keywords):
            # `a.max(axis=1)` is the values; torch's `max(dim=1)` is (values, indices).
            func.attr = "a" + func.attr
        if not self.rewrap:
            return node
        for keyword in node.keywords:
            keyword.arg = NUMPY_KEYWORDS.get(keyword.arg or "", keyword.arg)
        name = reading.text(node.func)
        # `torch.tensor(v, dtype=torch.float, requires_grad=True)`: the value, in that dtype
        # (requires_grad on a re-wrap is the folk fix that hides the cut).
        plain = all(k.arg in ("dtype", "requires_grad", "device") for k in node.keywords) \
            and name in REWRAP_CALLS or not node.keywords
        if len(node.args) == 1 and plain and (
                name == "float" or name in REWRAP_CALLS and not _literal(node.args[0])):
            value: ast.expr = node.args[0]
            if self.stack and name in REWRAP_CALLS:
                value = ast.Call(ast.Attribute(ast.Name("torch", ast.Load()), "stack",
                                               ast.Load()), [value], [])
            dtype = next((k.value for k in node.keywords if k.arg == "dtype"), None)
            if isinstance(dtype, ast.Attribute) and isinstance(dtype.value, ast.Name) \
                    and dtype.value.id in NUMPY:
                dtype = ast.Attribute(ast.Name("torch", ast.Load()), dtype.attr, ast.Load())
            return ast.Call(ast.Attribute(value, "to", ast.Load()), [dtype], []) \
                if dtype is not None else value
        if isinstance(func, ast.Attribute) and func.attr == "astype":
            return ast.Call(ast.Attribute(func.value, "float", ast.Load()), [], [])
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        return node.value if node.attr == "data" else node


def steps_in(node: ast.AST) -> bool:
    """Is there a `.step(...)` call (an optimizer's, a scheduler's) anywhere in `node`?"""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
               and n.func.attr == "step" for n in ast.walk(node))


def handed_to_step(scope: ast.AST, name: str) -> bool:
    """Is the function `name` handed to an optimizer's `step` in `scope` (`opt.step(closure)`),
    which may call it several times (LBFGS evaluates the loss at each trial point)?"""
    return any(isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
               and c.func.attr == "step" and any(
                   isinstance(a, ast.Name) and a.id == name
                   for a in [*c.args, *(k.value for k in c.keywords)])
               for c in ast.walk(scope))
