"""The user's source as syntax trees: where a name is assigned, which loop encloses a line,
which block holds a statement.

Source comes from linecache, so scripts, `python -c` and notebook cells all work. Pure
functions of text: nothing here imports torch or looks at live objects.
"""

from __future__ import annotations

import ast
import linecache
import os
from collections.abc import Iterator
from functools import lru_cache

Scope = ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
Loop = ast.For | ast.AsyncFor | ast.While
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def lines(filename: str) -> list[str]:
    # linecache never notices on its own that a file changed (a fix applied, a script run
    # twice in one process); entries without a file behind them (notebook cells) are kept.
    linecache.checkcache(filename)
    return linecache.getlines(filename)


def line_text(filename: str, line: int) -> str:
    return linecache.getline(filename, line).strip()


def quoted_as_file(filename: str, expression: str) -> str:
    """`model['encoder']`, as Python prints a key, in the file's own quotes when it writes
    subscripts with double ones."""
    if "['" not in expression:
        return expression
    text = "".join(lines(filename))
    return expression.replace("'", '"') if text.count('["') > text.count("['") else expression


@lru_cache(maxsize=64)
def _parse_text(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except SyntaxError:
        return None


def parse(filename: str) -> ast.Module | None:
    return _parse_text("".join(lines(filename)))


def scope_of(filename: str, function: str, first_line: int) -> Scope | None:
    """The def (or the module) that a code object with this name and first line came from."""
    tree = parse(filename)
    if tree is None:
        return None
    if function == "<module>":
        return tree
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == function:
            starts = [node.lineno] + [d.lineno for d in node.decorator_list]
            if first_line in starts:
                return node
    return None


def class_of(filename: str, function_scope: ast.AST) -> ast.ClassDef | None:
    tree = parse(filename)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and function_scope in node.body:
            return node
    return None


def class_named(filename: str, name: str, line: int) -> ast.ClassDef | None:
    tree = parse(filename)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == name and node.lineno <= line:
            if line <= (node.end_lineno or node.lineno) or line == node.lineno:
                return node
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == name:
            return node
    return None


def own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """Nodes of this scope, not descending into nested functions or classes."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, _FUNCTIONS):
            stack.extend(ast.iter_child_nodes(node))


def statements(scope: ast.AST) -> list[ast.stmt]:
    found = [n for n in own_nodes(scope) if isinstance(n, ast.stmt)]
    return sorted(found, key=lambda n: (n.lineno, n.col_offset))


def statement_at(scope: ast.AST, line: int) -> ast.stmt | None:
    """The innermost simple statement of `scope` that spans `line`."""
    best: ast.stmt | None = None
    for node in statements(scope):
        if node.lineno <= line <= (node.end_lineno or node.lineno):
            if not is_compound(node) or best is None:
                best = node
    return best


def is_compound(node: ast.stmt) -> bool:
    return isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith,
                             ast.Try, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))


def loops_around(scope: ast.AST, line: int) -> list[Loop]:
    """Loops of `scope` whose body spans `line`, outermost first."""
    found = [
        n for n in own_nodes(scope)
        if isinstance(n, (ast.For, ast.AsyncFor, ast.While))
        and n.body[0].lineno <= line <= (n.end_lineno or n.lineno)
    ]
    return sorted(found, key=lambda n: n.lineno)


def blocks_around(scope: ast.AST, line: int) -> list[ast.With]:
    found = [n for n in own_nodes(scope) if isinstance(n, ast.With)
             and n.body[0].lineno <= line <= (n.end_lineno or n.lineno)]
    return sorted(found, key=lambda n: n.lineno)


def inside(node: ast.AST, container: ast.AST) -> bool:
    return bool(
        container.lineno <= node.lineno  # type: ignore[attr-defined]
        and (node.end_lineno or node.lineno) <= (container.end_lineno or 0)  # type: ignore[attr-defined]
    )


def text(node: ast.AST) -> str:
    return ast.unparse(node)


def declares_outer(scope: ast.AST, name: str) -> bool:
    """Does the function declare `name` `nonlocal` or `global` (kept between its calls)?"""
    return any(isinstance(n, (ast.Nonlocal, ast.Global)) and name in n.names
               for n in own_nodes(scope))


def assigned_pairs(stmt: ast.Assign) -> list[tuple[ast.expr, ast.expr]]:
    """(target, value) of a one-target assignment, element by element when both sides are
    written-out tuples of one length (`a, b = x, y`)."""
    target, value = stmt.targets[0], stmt.value
    if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(
            target.elts) == len(value.elts):
        return list(zip(target.elts, value.elts))
    return [(target, value)]


def targets_of(target: ast.expr) -> list[ast.expr]:
    """The expressions one assignment target binds (tuples flattened)."""
    return targets(ast.Assign(targets=[target], value=ast.Constant(None)))


def targets(stmt: ast.stmt) -> list[ast.expr]:
    """The expressions a statement binds (tuple targets flattened)."""
    raw: list[ast.expr] = []
    if isinstance(stmt, ast.Assign):
        raw = list(stmt.targets)
    elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        raw = [stmt.target]
    elif isinstance(stmt, (ast.For, ast.AsyncFor)):
        raw = [stmt.target]
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        raw = [i.optional_vars for i in stmt.items if i.optional_vars is not None]
    out: list[ast.expr] = []
    while raw:
        t = raw.pop(0)
        if isinstance(t, (ast.Tuple, ast.List)):
            raw[:0] = list(t.elts)
        elif isinstance(t, ast.Starred):
            raw.insert(0, t.value)
        else:
            out.append(t)
    return out


def stores(scope: ast.AST, expr: str) -> list[ast.stmt]:
    """Statements of `scope` that bind `expr` (`h`, `self.memory`), in source order."""
    found = [s for s in statements(scope) if any(text(t) == expr for t in targets(s))]
    return found


MUTATORS = ("append", "extend", "insert", "appendleft", "update", "setdefault", "add")


def container_stores(scope: ast.AST, expr: str) -> list[tuple[ast.stmt, ast.expr]]:
    """Statements that put a value into the container `expr`: `expr.append(v)`,
    `expr[k] = v`, `expr[a:b] = v`, with the stored value."""
    found: list[tuple[ast.stmt, ast.expr]] = []
    for stmt in statements(scope):
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            func = stmt.value.func
            if (isinstance(func, ast.Attribute) and func.attr in MUTATORS
                    and text(func.value) == expr and stmt.value.args):
                found.append((stmt, stmt.value.args[-1]))
        elif isinstance(stmt, (ast.Assign, ast.AugAssign)):
            # `out, states[k] = model(x, state)` puts (part of) the call's value there too.
            tgts = targets(stmt)
            for t in tgts:
                if isinstance(t, ast.Subscript) and text(t.value) == expr:
                    found.append((stmt, stmt.value))
    return found


def reads(scope: ast.AST, expr: str) -> list[ast.expr]:
    """Loads of `expr` in `scope`, in source order."""
    found = [
        n for n in own_nodes(scope)
        if isinstance(n, (ast.Name, ast.Attribute, ast.Subscript))
        and isinstance(getattr(n, "ctx", None), ast.Load) and text(n) == expr
    ]
    return sorted(found, key=lambda n: (n.lineno, n.col_offset))


def names_in(node: ast.AST) -> set[str]:
    """Every Name and dotted attribute read inside `node`."""
    out: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, (ast.Name, ast.Attribute)) and isinstance(n.ctx, ast.Load):
            out.add(text(n))
    return out


def indent_of(filename: str, line: int) -> str:
    raw = linecache.getline(filename, line)
    return raw[: len(raw) - len(raw.lstrip())]


def parameters(scope: ast.AST) -> list[str]:
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        a = scope.args
        return [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
    return []


def call_receiver(stmt: ast.stmt, method: str) -> ast.expr | None:
    """For `X.backward(...)` (or `y = X.backward()`), the expression X."""
    for n in ast.walk(stmt):
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                and n.func.attr == method):
            return n.func.value
    return None


def inside_line(line: int, container: ast.AST) -> bool:
    start = container.lineno  # type: ignore[attr-defined]
    return bool(start <= line <= (container.end_lineno or start))  # type: ignore[attr-defined]


def segment(filename: str, node: ast.AST) -> str:
    """The expression exactly as the user wrote it (unparse would reformat it)."""
    found = ast.get_source_segment("".join(lines(filename)), node)
    return found if found is not None else text(node)


def block_of(scope: ast.AST, stmt: ast.stmt) -> list[ast.stmt] | None:
    """The statement list (a body, an else, a finally) that directly holds `stmt`."""
    for node in ast.walk(scope):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and any(s is stmt for s in block):
                return block
    return None


def siblings(scope: ast.AST, a: ast.stmt, b: ast.stmt) -> bool:
    """Are both statements in the same block (so one can move next to the other)?"""
    block = block_of(scope, a)
    return block is not None and any(s is b for s in block)


def sibling_holding(scope: ast.AST, anchor: ast.stmt, inner: ast.stmt) -> ast.stmt | None:
    """The statement in `anchor`'s block that is, or contains, `inner`."""
    block = block_of(scope, anchor) or []
    return next((s for s in block if s is inner or (s is not anchor and inside(inner, s))),
                None)


def top_statement(block: list[ast.stmt], node: ast.AST) -> ast.stmt | None:
    """The statement directly in `block` that contains `node`."""
    for stmt in block:
        if inside(node, stmt):
            return stmt
    return None


def first_use(body: list[ast.stmt], scope: ast.AST, expression: str) -> ast.stmt | None:
    """The first statement of `body` (a loop or function body) that reads `expression`."""
    start, end = body[0].lineno, body[-1].end_lineno or body[-1].lineno
    for read in reads(scope, expression):
        if start <= read.lineno <= end:
            return top_statement(body, read)
    return None


def may_be_none(scope: ast.AST, expression: str) -> bool:
    """Is the name ever bound to a literal None (an RNN state before its first step)?"""
    for stmt in stores(scope, expression):
        value = getattr(stmt, "value", None)
        if isinstance(value, ast.Constant) and value.value is None:
            return True
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        args = scope.args
        names = [a.arg for a in args.args][-len(args.defaults):] if args.defaults else []
        value = dict(zip(names, args.defaults)).get(expression)
        if isinstance(value, ast.Constant) and value.value is None:
            return True
    return False


def bound_arguments(function: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call,
                    defaults: bool = False, method: bool = False) -> dict[str, ast.expr]:
    """What a call of `function` binds to its parameters (positional and keyword), and with
    `defaults`, the defaults of those it does not pass. `method`: called as `obj.f(...)`, so
    a first `self`/`cls` is bound by Python, not by the call."""
    a = function.args
    names = [x.arg for x in a.posonlyargs + a.args]
    if method and names and names[0] in ("self", "cls"):
        names = names[1:]
    bound: dict[str, ast.expr] = {}
    if defaults:
        bound.update(zip(names[len(names) - len(a.defaults):], a.defaults))
        bound.update({k.arg: v for k, v in zip(a.kwonlyargs, a.kw_defaults) if v is not None})
    bound.update(zip(names, call.args))
    bound.update({k.arg: k.value for k in call.keywords if k.arg})
    return bound


def assigns_none(tree: ast.AST, name: str) -> bool:
    """Does `tree` bind `name` to a literal None anywhere (`self.h = None` in `__init__`)?"""
    return any(isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)
               and n.value.value is None and any(text(t) == name for t in n.targets)
               for n in ast.walk(tree))


def value_span(stmt: ast.stmt) -> ast.expr | None:
    """The value an assignment stores."""
    if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        return stmt.value
    return None


def enclosing_function(tree: ast.AST, node: ast.AST) -> ast.FunctionDef | None:
    """The innermost plain `def` of `tree` whose span holds `node`."""
    found = [f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and f is not node
             and inside(node, f)]
    return max(found, key=lambda f: f.lineno) if found else None


def function_called(filename: str, call: ast.Call) -> tuple[str, ast.FunctionDef] | None:
    """The user function a plain call names: a `def` at the top of the same module, or one
    imported with `from module import name` from a module beside it."""
    if not isinstance(call.func, ast.Name):
        return None
    name = call.func.id
    tree = parse(filename)
    for node in tree.body if tree is not None else []:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return filename, node
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and any((a.asname or a.name) == name for a in node.names):
            beside = os.path.join(os.path.dirname(filename), *node.module.split(".")) + ".py"
            original = next(a.name for a in node.names if (a.asname or a.name) == name)
            other = parse(beside) if os.path.exists(beside) else None
            found = [n for n in other.body if isinstance(n, ast.FunctionDef)
                     and n.name == original] if other is not None else []
            return (beside, found[0]) if found else None
    return None


def module_constants(filename: str, names: set[str]) -> list[ast.Assign]:
    """Top-level `NAME = value` assignments of `filename` for these names."""
    tree = parse(filename)
    return [n for n in (tree.body if tree is not None else []) if isinstance(n, ast.Assign)
            and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
            and n.targets[0].id in names]
