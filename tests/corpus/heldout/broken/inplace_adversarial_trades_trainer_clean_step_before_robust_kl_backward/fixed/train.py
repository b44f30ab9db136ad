"""TRADES-style robust training of a small tabular-signal classifier:
cross-entropy on clean inputs plus beta * KL(clean || adversarial), with
the adversarial inputs found by a few PGD steps on the KL term."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_FEAT, N_CLASSES = 16, 3


def pgd_kl(model, x, eps=0.1, step=0.03, n_steps=3):
    model.eval()
    with torch.no_grad():
        p_clean = F.softmax(model(x), dim=1)
    x_adv = x + 0.001 * torch.randn_like(x)
    for _ in range(n_steps):
        x_adv.requires_grad_(True)
        kl = F.kl_div(F.log_softmax(model(x_adv), dim=1), p_clean, reduction="batchmean")
        grad, = torch.autograd.grad(kl, x_adv)
        x_adv = x_adv.detach() + step * grad.sign()
        x_adv = torch.min(torch.max(x_adv, x - eps), x + eps)
    model.train()
    return x_adv.detach()


class TradesTrainer:
    def __init__(self, beta=6.0):
        self.model = nn.Sequential(nn.Linear(N_FEAT, 64), nn.ReLU(), nn.Linear(64, 64),
                                   nn.ReLU(), nn.Linear(64, N_CLASSES))
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.05, momentum=0.9)
        self.beta = beta

    def step(self, x, y):
        x_adv = pgd_kl(self.model, x)
        logits_clean = self.model(x)
        logits_adv = self.model(x_adv)

        natural = F.cross_entropy(logits_clean, y)
        self.opt.zero_grad()
        natural.backward(retain_graph=True)

        robust = self.beta * F.kl_div(F.log_softmax(logits_adv, dim=1),
                                      F.softmax(logits_clean, dim=1), reduction="batchmean")
        robust.backward()
        self.opt.step()
        return natural.item(), robust.item()


def make_data(n_batches, batch=32, seed=4):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(N_FEAT, N_CLASSES, generator=g)
    data = []
    for _ in range(n_batches):
        x = torch.randn(batch, N_FEAT, generator=g)
        data.append((x, (x @ w).argmax(1)))
    return data


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = TradesTrainer()
    for epoch in range(2):
        for i, (x, y) in enumerate(make_data(3)):
            nat, rob = trainer.step(x, y)
            print(f"epoch {epoch} batch {i} natural {nat:.4f} robust {rob:.4f}")
