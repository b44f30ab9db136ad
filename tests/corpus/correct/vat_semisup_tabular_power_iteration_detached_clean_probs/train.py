"""Semi-supervised credit-risk classification with virtual adversarial training. The power
iteration backpropagates a KL divergence into a random direction (and, on the way, into the
model's weights, which are zeroed again), and the clean predictions serve as a constant
target for the smoothness term."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_COLS, N_CLASSES, XI, EPS = 9, 2, 1e-6, 1.0


def unit(d):
    return d / (d.norm(dim=1, keepdim=True) + 1e-8)


def kl_to(target_probs, logits):
    return F.kl_div(F.log_softmax(logits, dim=1), target_probs, reduction="batchmean")


def vat_term(model, x, clean_logits, power_iters=2):
    target = F.softmax(clean_logits.detach(), dim=1)
    d = unit(torch.randn_like(x))
    for _ in range(power_iters):
        d.requires_grad_(True)
        kl_to(target, model(x + XI * d)).backward()
        d = unit(d.grad.detach())
        model.zero_grad(set_to_none=True)
    return kl_to(target, model(x + EPS * d))


def loans(n=160):
    x = torch.randn(n, N_COLS)
    y = (x[:, 0] - 0.7 * x[:, 3] + 0.4 * x[:, 5] > 0).long()
    return x, y


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(N_COLS, 32), nn.Tanh(), nn.Linear(32, N_CLASSES))
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
x, y = loans()
labelled = torch.zeros(len(x), dtype=torch.bool)
labelled[:24] = True

for step in range(6):
    batch = torch.randperm(len(x))[:64]
    logits = model(x[batch])
    mask = labelled[batch]
    ce = F.cross_entropy(logits[mask], y[batch][mask]) if mask.any() else logits.sum() * 0
    lds = vat_term(model, x[batch], logits)
    loss = ce + 0.5 * lds
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} ce {ce.item():.4f} lds {lds.item():.5f}")

checksum = sum(p.sum().item() for p in model.parameters())
print(f"param checksum {checksum:.6f}")
