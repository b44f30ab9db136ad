"""The idiomatic written forms of common edits: a detached value of the right shape, a call
with a keyword added or dropped. Torch-free; pure functions of text.
"""

from __future__ import annotations

import ast


def detached(expr: str, structure: str = "T", var: str = "t") -> str:
    """The idiomatic detached form of `expr` for a value shaped like `structure`.

    T -> `h.detach()`; (T, T) -> `tuple(t.detach() for t in h)`; [(T, T), ...] -> a nested
    comprehension; {T, T} -> `{k: v.detach() for k, v in h.items()}`. Unknown shapes fall
    back to a tensor.
    """
    if structure.startswith("{"):
        inner = _first_element(structure)
        key = "k" if var == "t" else f"k{var}"
        return f"{{{key}: {detached(var, inner, var + 't')} for {key}, {var} in {expr}.items()}}"
    if structure.startswith("("):
        inner = _first_element(structure)
        return f"tuple({detached(var, inner, var + 't')} for {var} in {expr})"
    if structure.startswith("["):
        inner = _first_element(structure)
        return f"[{detached(var, inner, var + 't')} for {var} in {expr}]"
    return _split_detached(expr) or f"{atom(expr)}.detach()"


# Tensor methods that return a tuple of views: a tuple has no .detach(), so the tensor they
# split is detached instead (`batch.detach().unbind(0)`, the same values, no graph).
_SPLITTERS = ("unbind", "split", "chunk", "tensor_split", "hsplit", "vsplit", "dsplit")


def _split_detached(expr: str) -> str | None:
    if "\n" in expr:  # offsets below are within one line
        return None
    try:
        node = ast.parse(expr, mode="eval").body
    except SyntaxError:
        return None
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in _SPLITTERS):
        return None
    receiver = ast.unparse(node.func.value)
    if receiver in ("torch", "th"):  # `torch.split(x, 2)`: the tensor is the first argument
        if not node.args:
            return None
        first = ast.get_source_segment(expr, node.args[0]) or ast.unparse(node.args[0])
        start = node.args[0].col_offset
        end = node.args[0].end_col_offset or start
        return f"{expr[:start]}{atom(first)}.detach(){expr[end:]}"
    end = node.func.value.end_col_offset or 0
    return f"{atom(expr[:end])}.detach(){expr[end:]}"


def _first_element(structure: str) -> str:
    body = structure[1:-1]
    depth = 0
    for i, ch in enumerate(body):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            return body[:i].strip()
    return body.strip() or "T"


def atom(expr: str) -> str:
    """`expr` parenthesised unless it already is an atom followed only by trailers, so that
    `.detach()` or `.item()` can follow it."""
    try:
        node = ast.parse(expr, mode="eval").body
    except SyntaxError:
        return f"({expr})"
    if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript, ast.Call, ast.Tuple,
                         ast.List)) and not (isinstance(node, ast.Tuple)
                                             and not expr.startswith("(")):
        return expr
    return f"({expr})"


def call_with(func: str, args: list[str]) -> str:
    return f"{func}({', '.join(args)})"
