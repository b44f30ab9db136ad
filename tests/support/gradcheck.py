"""Run the autograd-doctor CLI in this process and record, independently of the doctor,
which trainable parameters received a non-zero gradient before some optimizer step.

usage: python gradcheck.py SUMMARY.json ARGS...   (ARGS as for `autograd-doctor`)
"""

from __future__ import annotations

import json
import sys

from torch.optim.optimizer import register_optimizer_step_pre_hook

from autograd_doctor.integrations.cli import main

seen: dict[int, bool] = {}
shapes: dict[int, list[int]] = {}


def record(optimizer, args, kwargs):  # type: ignore[no-untyped-def]
    for group in optimizer.param_groups:
        for p in group["params"]:
            if not p.requires_grad:
                continue
            got = p.grad is not None and bool(p.grad.ne(0).any())
            seen[id(p)] = seen.get(id(p), False) or got
            shapes[id(p)] = list(p.shape)


handle = register_optimizer_step_pre_hook(record)
code = main(sys.argv[2:])
handle.remove()
summary = {
    "exit_code": code,
    "params": len(seen),
    "without_grad": [shapes[k] for k, v in seen.items() if not v],
}
with open(sys.argv[1], "w", encoding="utf-8") as out:
    json.dump(summary, out)
raise SystemExit(0)
