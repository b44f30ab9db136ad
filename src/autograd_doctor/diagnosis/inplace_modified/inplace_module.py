"""In-place module: a layer or function that writes in place overwrote a tensor that another
op saved for backward: an activation built with `inplace=True` (`nn.ReLU(inplace=True)`,
`F.relu(x, inplace=True)`), or a layer that changes its own weight in forward
(`nn.Embedding(..., max_norm=...)` renormalises the rows it looks up).

`inplace=True` saves memory only when nothing else needs the input. After ops that save
their output (sigmoid, tanh, softmax, batch norm in some modes) or when the input is also
used elsewhere (a residual branch), the overwrite breaks backward: build the activation with
`inplace=False` (the default). A layer that renormalises its weight needs the other use of
that weight to read a copy: `F.linear(h, self.embed.weight.clone())`, as PyTorch's Embedding
documentation recommends for tied weights.
"""

from __future__ import annotations

import ast
import inspect

from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.inplace_modified.evidence import (
    LIBRARY,
    MODULE,
    Inplace,
    Write,
    claim,
    describe_saved,
)
from autograd_doctor.edits.operations import Remedy, replace_node
from autograd_doctor.graph.names import modules_in
from autograd_doctor.source import places, reading

CATEGORY = "inplace-module"
CULPRIT = "torch.sigmoid(self.fc1(x))"
CULPRIT_LINE = 11  # line of BROKEN

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(4, 8), nn.Linear(8, 1)
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.fc2(self.act(torch.sigmoid(self.fc1(x))))


model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.randn(8, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("nn.ReLU(inplace=True)", "nn.ReLU(inplace=False)")


def match(ev: Inplace) -> Claim | None:
    if ev.writer_kind == LIBRARY:
        return _renormalised(ev, ev.writes[0])
    if ev.writer_kind != MODULE:
        return None
    write = ev.writes[0]
    line = write.line
    expression, kind = _name(ev, write)
    why = (
        f"{describe_saved(ev, ev.name or expression)} was saved for backward by the previous "
        f"operation, then overwritten by the in-place activation built at "
        f"{places.user_path(write.file)}:{line} (`{reading.line_text(write.file, line)}`)."
    )
    hint = ("inplace=True only saves memory when nothing needs the input afterwards; here "
            "backward does. Build it with inplace=False.")
    return claim(ev, CATEGORY, why, hint, expression, kind, (write.file, line),
                 _not_inplace(write))


def _name(ev: Inplace, write: Write) -> tuple[str, str]:
    """The tensor the activation overwrote, as `forward` calls it (`feats` in
    `self.head(feats)`), else the module as the code names it (`self.act`)."""
    if write.how == "keyword":
        return write.target, "local"
    called = _where_called(ev, write) or _called_with(ev, write)
    if called is not None:
        return called, "local" if called.isidentifier() else "expression"
    stmt = write.stmt
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = reading.text(stmt.targets[0])
        return target, "attribute" if "." in target else "local"
    call = write.call
    return (reading.segment(write.file, call) if call else write.target), "expression"


def _where_called(ev: Inplace, write: Write) -> str | None:
    """The tensor the layer overwrote, read off the statement the replay saw it run in:
    the argument of `self.act(h[:, 0])` (writing a view writes `h`), or, for the last layer
    of `self.gate = nn.Sequential(..., nn.ReLU(inplace=True))`, what `w = self.gate(x)`
    binds (the first layer's input is the argument again)."""
    ran = ev.traced.site[0].statement if ev.traced is not None and ev.traced.site else None
    built = write.stmt
    if ran is None or write.call is None or not isinstance(built, ast.Assign) \
            or len(built.targets) != 1:
        return None
    holder = reading.text(built.targets[0])
    call = next((n for n in ast.walk(ran) if isinstance(n, ast.Call)
                 and reading.text(n.func) == holder and n.args), None)
    if call is None:
        return None
    layers = built.value.args if isinstance(built.value, ast.Call) else []
    if built.value is write.call or layers and layers[0] is write.call:
        argument = call.args[0]
        while isinstance(argument, ast.Subscript):
            argument = argument.value
        return reading.text(argument)
    if layers and layers[-1] is write.call and isinstance(ran, ast.Assign) \
            and len(ran.targets) == 1 and ran.value is call:
        return reading.text(ran.targets[0])
    return None


def _called_with(ev: Inplace, write: Write) -> str | None:
    """Find the live in-place module, the attribute of its parent that holds it, and the
    argument `forward` passes to that attribute."""
    for scope in ev.scopes:
        for _, root in modules_in(scope):
            for path, sub in root.named_modules():
                if getattr(sub, "inplace", False) is not True or not path:
                    continue
                owner_path, _, _ = path.partition(".")
                parent = root
                attr = owner_path
                for holder_path, holder in root.named_modules():
                    if path.startswith(holder_path + ".") and holder_path:
                        head = path[len(holder_path) + 1:].split(".")[0]
                        if hasattr(holder, head) and not head.isdigit():
                            parent, attr = holder, head
                arg = _argument_of(type(parent), f"self.{attr}")
                if arg is not None:
                    return arg
    return None


def _argument_of(cls: type, attribute: str) -> str | None:
    try:
        file = inspect.getsourcefile(cls)
        _, first = inspect.getsourcelines(cls)
    except (TypeError, OSError):
        return None
    node = reading.class_named(file, cls.__name__, first) if file else None
    if node is None or file is None:
        return None
    for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
        if reading.text(call.func) == attribute and call.args:
            return reading.segment(file, call.args[0])
    return None


def _inplace_call(write: Write) -> ast.Call | None:
    if write.call is not None:
        return write.call
    for node in ast.walk(write.stmt):
        if isinstance(node, ast.Call) and any(
                k.arg == "inplace" and isinstance(k.value, ast.Constant) and k.value.value is True
                for k in node.keywords):
            return node
    return None


def _not_inplace(write: Write) -> Remedy | None:
    call = _inplace_call(write)
    if call is None:
        return None
    keyword = next(k for k in call.keywords if k.arg == "inplace")
    return Remedy(
        strategy="inplace-false",
        description="build the activation with inplace=False",
        file=write.file,
        line=write.stmt.lineno,
        operations=(replace_node(write.file, keyword.value, "False"),),
    )


def _renormalised(ev: Inplace, write: Write) -> Claim | None:
    """A layer that writes its own weight during forward (the replay saw the write inside
    the call to it): the culprit is that weight, written where the layer was built."""
    if ev.name is None or ev.traced is None or not ev.traced.site:
        return None
    expression = _as_built(ev.name, write.target)
    ran = ev.traced.site[0]
    saver = ev.saver
    why = (
        f"{describe_saved(ev, expression)} was saved for backward"
        f"{f' at {places.user_path(saver.file)}:{saver.line}' if saver else ''}, then "
        f"changed in place by the layer built at {places.user_path(write.file)}:{write.line} "
        f"(`{reading.line_text(write.file, write.line)}`) when it ran at "
        f"{places.user_path(ran.file)}:{ran.line}: this layer writes its own weight in "
        f"forward."
    )
    hint = ("Let the other use read a copy (`.clone()`), so that the saved value stays "
            "intact, or build the layer so that it does not write in place.")
    return claim(ev, CATEGORY, why, hint, expression, "parameter", (write.file, write.line),
                 _clone_saved(ev, expression))


def _as_built(name: str, built: str) -> str:
    """`model.embed.weight` as the class that built `self.embed` writes it."""
    attr = built.rsplit(".", 1)[-1]
    for sep in ("[", "."):
        marker = f".{attr}{sep}"
        if marker in name:
            return built + name[name.rindex(marker) + len(attr) + 1:]
    return name


def _clone_saved(ev: Inplace, expression: str) -> Remedy | None:
    """`.clone()` on the read of the tensor where the node that saved it was made."""
    saver = ev.saver
    stmt = saver.statement if saver is not None else None
    if saver is None or stmt is None:
        return None
    tail = expression.split(".", 1)[-1]
    reads = [n for n in ast.walk(stmt) if isinstance(n, (ast.Attribute, ast.Name))
             and isinstance(n.ctx, ast.Load) and (reading.text(n) == expression
                                                  or reading.text(n).endswith("." + tail))]
    if not reads:
        return None
    read = reads[0]
    return Remedy("clone-saved", f"read a copy of {reading.text(read)} there", saver.file,
                  read.lineno, (replace_node(saver.file, read,
                                             f"{reading.segment(saver.file, read)}.clone()"),))
