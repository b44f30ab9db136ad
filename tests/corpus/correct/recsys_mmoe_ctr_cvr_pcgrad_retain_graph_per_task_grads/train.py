"""Multi-task recommender (MMoE: shared experts, one gate and tower per task) for click
(CTR) and conversion (CVR) prediction, trained with PCGrad: per-task gradients are taken
from one forward pass (retain_graph=True on every backward but the last), conflicting
components are projected away, and the merged gradient is written back before the step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TASKS = ("ctr", "cvr")


class MMoE(nn.Module):
    def __init__(self, n_feats=10, n_experts=3, d_expert=16):
        super().__init__()
        self.experts = nn.ModuleList(
            [nn.Sequential(nn.Linear(n_feats, d_expert), nn.ReLU()) for _ in range(n_experts)])
        self.gates = nn.ModuleList([nn.Linear(n_feats, n_experts) for _ in TASKS])
        self.towers = nn.ModuleList(
            [nn.Sequential(nn.Linear(d_expert, 8), nn.ReLU(), nn.Linear(8, 1)) for _ in TASKS])

    def forward(self, x):
        experts = torch.stack([e(x) for e in self.experts], dim=1)
        logits = []
        for gate, tower in zip(self.gates, self.towers):
            mix = F.softmax(gate(x), dim=1).unsqueeze(-1)
            logits.append(tower((mix * experts).sum(dim=1)).squeeze(1))
        return logits


def per_task_grads(model, optimizer, losses):
    """One flattened gradient per task, all from the same forward graph."""
    params = [p for p in model.parameters() if p.requires_grad]
    flat = []
    for i, loss in enumerate(losses):
        optimizer.zero_grad(set_to_none=True)
        loss.backward(retain_graph=i < len(losses) - 1)
        flat.append(torch.cat([(p.grad if p.grad is not None else torch.zeros_like(p)).flatten()
                               for p in params]))
    return params, flat


def pcgrad_merge(flat):
    projected, conflicts = [], 0
    for i, g_i in enumerate(flat):
        g = g_i.clone()
        for j, g_j in enumerate(flat):
            if i == j:
                continue
            dot = torch.dot(g, g_j)
            if dot < 0:
                g = g - dot / (g_j.norm() ** 2 + 1e-12) * g_j
                conflicts += 1
        projected.append(g)
    return torch.stack(projected).sum(dim=0), conflicts


def write_grads(params, merged):
    offset = 0
    for p in params:
        n = p.numel()
        p.grad = merged[offset:offset + n].view_as(p).clone()
        offset += n


def make_impressions(n, gen):
    x = torch.randn(n, 10, generator=gen)
    click = (x[:, 0] + 0.5 * x[:, 1] + 0.3 * torch.randn(n, generator=gen) > 0).float()
    convert = (click * (x[:, 2] - 0.4 * x[:, 0] > 0).float())
    return x, click, convert


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = MMoE()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    x_all, click_all, convert_all = make_impressions(120, gen)

    for step in range(6):
        sl = slice(step * 20, (step + 1) * 20)
        x, click, convert = x_all[sl], click_all[sl], convert_all[sl]
        ctr_logit, cvr_logit = model(x)
        ctr_loss = F.binary_cross_entropy_with_logits(ctr_logit, click)
        cvr_loss = F.binary_cross_entropy_with_logits(cvr_logit, convert)
        params, flat = per_task_grads(model, optimizer, [ctr_loss, cvr_loss])
        merged, conflicts = pcgrad_merge(flat)
        write_grads(params, merged)
        optimizer.step()
        print(f"step {step} ctr {ctr_loss.item():.4f} cvr {cvr_loss.item():.4f} "
              f"conflicts {conflicts} grad_norm {merged.norm().item():.4f}")

    checksum = sum(p.detach().double().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
