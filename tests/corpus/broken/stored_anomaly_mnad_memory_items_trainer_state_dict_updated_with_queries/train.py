"""Train the memory autoencoder on normal machine-vibration windows only, then score a few
windows with injected faults by reconstruction error."""
import torch
import torch.nn.functional as F

from memory_ae import MemoryAE

IN_DIM, KEY_DIM, N_ITEMS = 24, 12, 6


def normal_windows(n, gen):
    t = torch.linspace(0, 6.28, IN_DIM)
    freq = torch.randint(1, 4, (n, 1), generator=gen).float()
    amp = 1.0 + 0.1 * torch.randn(n, 1, generator=gen)
    return amp * torch.sin(freq * t) + 0.05 * torch.randn(n, IN_DIM, generator=gen)


class Trainer:
    def __init__(self, model, lr=3e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.state = {"memory": F.normalize(torch.randn(N_ITEMS, KEY_DIM), dim=1), "step": 0}

    def train_step(self, x):
        items = self.state["memory"]
        recon, query, score = self.model(x, items)
        compact, separate = self.model.feature_losses(items, query, score)
        loss = F.mse_loss(recon, x) + 0.1 * compact + 0.1 * separate
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.state["memory"] = self.model.update_items(items, query, score)
        self.state["step"] += 1
        return loss.item()

    @torch.no_grad()
    def anomaly_score(self, x):
        recon, _, _ = self.model(x, self.state["memory"])
        return (recon - x).pow(2).mean(dim=1)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(3)
    trainer = Trainer(MemoryAE(IN_DIM, KEY_DIM))
    for epoch in range(2):
        for _ in range(3):
            loss = trainer.train_step(normal_windows(16, gen))
            print(f"epoch {epoch} step {trainer.state['step']} loss {loss:.4f}")
    normal = normal_windows(4, gen)
    faulty = normal.clone()
    faulty[:, 8:12] += 2.0
    print("normal scores", [round(v, 4) for v in trainer.anomaly_score(normal).tolist()])
    print("faulty scores", [round(v, 4) for v in trainer.anomaly_score(faulty).tolist()])


if __name__ == "__main__":
    main()
