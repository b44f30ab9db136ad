"""Deep ensemble for aqueous-solubility regression from 16 molecular descriptors. Four small
MLPs are trained in one vectorised pass, following the torch.func model-ensembling recipe
(stack_module_state + functional_call + vmap); the spread of their predictions is the
uncertainty estimate used to pick compounds for the next assay round."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, stack_module_state, vmap

torch.manual_seed(0)
N_MEMBERS, N_DESC, BATCH, STEPS = 4, 16, 64, 6
TRUE_W = torch.randn(N_DESC)


def make_member():
    return nn.Sequential(nn.Linear(N_DESC, 32), nn.Tanh(), nn.Linear(32, 1))


def descriptors(n):
    x = torch.randn(n, N_DESC)
    log_s = x @ TRUE_W / 4 - 0.5 * x[:, 0].pow(2) + 0.1 * torch.randn(n)
    return x, log_s


def train(members, steps=STEPS):
    optimizer = torch.optim.Adam([p for m in members for p in m.parameters()], lr=1e-2)
    params, buffers = stack_module_state(members)
    skeleton = copy.deepcopy(members[0]).to("meta")

    def one_member(p, b, x):
        return functional_call(skeleton, (p, b), (x,)).squeeze(-1)

    ensemble = vmap(one_member, in_dims=(0, 0, None))
    for step in range(steps):
        x, y = descriptors(BATCH)
        preds = ensemble(params, buffers, x)            # (members, batch)
        loss = F.mse_loss(preds, y.expand_as(preds), reduction="none").mean(dim=1).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} summed member mse {loss.item():.4f}")
    return ensemble, params, buffers


members = [make_member() for _ in range(N_MEMBERS)]
ensemble, params, buffers = train(members)
with torch.no_grad():
    x, _ = descriptors(8)
    spread = ensemble(params, buffers, x).std(dim=0)
print(f"mean predictive std {spread.mean().item():.4f}")
print(f"member weight checksum {sum(p.sum() for p in params.values()).item():.4f}")
