import torch

from module import DemandForecaster


def make_loader(n_batches=5, batch=16, lookback=12, horizon=3, seed=2):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(lookback + horizon, dtype=torch.float32)
    out = []
    for _ in range(n_batches):
        phase = torch.rand(batch, 1, generator=g) * 6.28
        series = torch.sin(t / 3 + phase) + 0.1 * torch.randn(batch, len(t), generator=g)
        out.append((series[:, :lookback], series[:, lookback:]))
    return out


class MiniTrainer:
    def __init__(self, max_epochs):
        self.max_epochs = max_epochs

    def fit(self, module, loader):
        opt = module.configure_optimizers()
        for epoch in range(self.max_epochs):
            for i, batch in enumerate(loader):
                loss = module.training_step(batch, i)
                opt.zero_grad()
                loss.backward()
                opt.step()
            module.on_train_epoch_end()
            print(f"epoch {epoch} train MAE {module.epoch_mae[-1]}")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = DemandForecaster()
    MiniTrainer(max_epochs=2).fit(model, make_loader())
    print("checksum", round(sum(p.sum().item() for p in model.parameters()), 4))
