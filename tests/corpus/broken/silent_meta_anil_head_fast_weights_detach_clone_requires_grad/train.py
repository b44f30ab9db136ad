"""ANIL (almost-no-inner-loop) few-shot classification on synthetic 5-way tasks.

Only the linear head is adapted in the inner loop (second-order, through fast weights);
the feature body is shared and learned in the outer loop together with the head's
initialisation.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_WAY, K_SHOT, N_QUERY, IN_DIM, FEAT = 5, 3, 5, 20, 32
INNER_LR, INNER_STEPS, META_BATCH = 0.4, 2, 4


class ANIL(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(IN_DIM, 64), nn.ReLU(), nn.Linear(64, FEAT), nn.ReLU())
        self.head = nn.Linear(FEAT, N_WAY)


def sample_task(gen):
    centers = torch.randn(N_WAY, IN_DIM, generator=gen) * 1.5
    def draw(k):
        y = torch.arange(N_WAY).repeat_interleave(k)
        return centers[y] + torch.randn(len(y), IN_DIM, generator=gen), y
    return draw(K_SHOT), draw(N_QUERY)


def adapt_head(model, feats, labels):
    fast_w = model.head.weight.detach().clone().requires_grad_()
    fast_b = model.head.bias.detach().clone().requires_grad_()
    for _ in range(INNER_STEPS):
        loss = F.cross_entropy(F.linear(feats, fast_w, fast_b), labels)
        gw, gb = torch.autograd.grad(loss, (fast_w, fast_b), create_graph=True)
        fast_w, fast_b = fast_w - INNER_LR * gw, fast_b - INNER_LR * gb
    return fast_w, fast_b


def meta_train(iterations=6):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = ANIL()
    meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for it in range(iterations):
        meta_opt.zero_grad()
        meta_loss, correct = 0.0, 0.0
        for _ in range(META_BATCH):
            (xs, ys), (xq, yq) = sample_task(gen)
            fast_w, fast_b = adapt_head(model, model.body(xs), ys)
            logits = F.linear(model.body(xq), fast_w, fast_b)
            meta_loss = meta_loss + F.cross_entropy(logits, yq) / META_BATCH
            correct += (logits.argmax(1) == yq).float().mean().item() / META_BATCH
        meta_loss.backward()
        meta_opt.step()
        print(f"iter {it} meta-loss {meta_loss.item():.4f} query acc {correct:.3f}")


if __name__ == "__main__":
    meta_train()
