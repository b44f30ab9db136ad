"""Precipitation downscaling trained on rain gauges: a residual CNN turns a coarse 8x8
precipitation tile plus fine 32x32 terrain into a non-negative fine-grid field. Gauges sit at
fractional grid positions and are read off the prediction with bilinear grid_sample; a
mass-conservation term ties the fine field back to the coarse input. A Trainer runs callbacks
(an EMA of the weights, validation) after each step or epoch."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

COARSE, FINE, N_GAUGES = 8, 32, 30


class ResBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.act = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x):
        out = self.conv2(self.act(self.conv1(x)))
        out += x
        return self.act(out)


class PrecipDownscaler(nn.Module):
    def __init__(self, channels=16):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(2, channels, 3, padding=1), nn.ReLU(inplace=True))
        self.blocks = nn.Sequential(ResBlock(channels), ResBlock(channels))
        self.head = nn.Conv2d(channels, 1, 3, padding=1)

    def forward(self, coarse, terrain):
        base = F.interpolate(coarse, size=(FINE, FINE), mode="nearest")
        x = torch.cat([base, terrain.expand(len(coarse), -1, -1, -1)], dim=1)
        rain = self.head(self.blocks(self.stem(x))) + base
        rain.clamp_(min=0.0)  # precipitation is never negative
        return rain


def read_gauges(field, gauges_xy):
    """Bilinear value of field (B, 1, H, W) at each gauge, gauges_xy in [-1, 1]: (B, S)."""
    grid = gauges_xy.view(1, 1, -1, 2).expand(len(field), -1, -1, -1)
    return F.grid_sample(field, grid, mode="bilinear", align_corners=True)[:, 0, 0]


class EMACallback:
    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.shadow = [p.detach().clone() for p in model.parameters()]

    def on_step_end(self, trainer):
        with torch.no_grad():
            for s, p in zip(self.shadow, trainer.model.parameters()):
                s.lerp_(p, 1 - self.decay)

    def on_epoch_end(self, trainer, epoch):
        pass


class ValidationCallback:
    def __init__(self, batch):
        self.batch = batch

    def on_step_end(self, trainer):
        pass

    def on_epoch_end(self, trainer, epoch):
        coarse, gauges = self.batch
        with torch.set_grad_enabled(False):
            pred = read_gauges(trainer.model(coarse, trainer.terrain), trainer.gauges_xy)
        err = (pred - gauges).numpy()
        print(f"epoch {epoch} validation gauge rmse {np.sqrt((err ** 2).mean()):.4f} mm")


class Trainer:
    def __init__(self, model, terrain, gauges_xy, callbacks, lr=2e-3, mass_weight=0.5):
        self.model, self.terrain, self.gauges_xy = model, terrain, gauges_xy
        self.callbacks, self.mass_weight = callbacks, mass_weight
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def step(self, coarse, gauges):
        fine = self.model(coarse, self.terrain)
        gauge_loss = F.mse_loss(read_gauges(fine, self.gauges_xy), gauges)
        mass_loss = F.mse_loss(F.avg_pool2d(fine, FINE // COARSE), coarse)
        loss = gauge_loss + self.mass_weight * mass_loss
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        for cb in self.callbacks:
            cb.on_step_end(self)
        return loss.item()

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            losses = [self.step(*batch) for batch in batches]
            print(f"epoch {epoch} train loss {sum(losses) / len(losses):.4f}")
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch)


def make_world():
    yy, xx = torch.meshgrid(torch.linspace(0, 1, FINE), torch.linspace(0, 1, FINE), indexing="ij")
    terrain = torch.exp(-((xx - 0.35) ** 2 + (yy - 0.6) ** 2) / 0.03)[None, None]
    terrain -= terrain.mean()
    terrain /= terrain.std()
    gauges_xy = torch.from_numpy(np.random.default_rng(0).uniform(-1, 1, (N_GAUGES, 2))).float()
    return terrain, gauges_xy


def storms(terrain, gauges_xy, n, gen):
    """Fine rain fields: random smooth storms enhanced on the windward slope."""
    cells = torch.rand(n, 1, 4, 4, generator=gen) ** 2
    field = F.interpolate(cells, size=(FINE, FINE), mode="bilinear", align_corners=False)
    field = 4 * field * (1 + 0.5 * terrain.clamp(min=0))
    coarse = F.avg_pool2d(field, FINE // COARSE)
    gauges = read_gauges(field, gauges_xy) + 0.05 * torch.rand(n, N_GAUGES, generator=gen)
    return coarse, gauges


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    terrain, gauges_xy = make_world()
    with torch.no_grad():
        batches = [storms(terrain, gauges_xy, 8, gen) for _ in range(3)]
        val_batch = storms(terrain, gauges_xy, 16, gen)
    model = PrecipDownscaler()
    ema = EMACallback(model)
    trainer = Trainer(model, terrain, gauges_xy, [ema, ValidationCallback(val_batch)])
    trainer.fit(batches, epochs=2)
    print(f"ema checksum {sum(s.sum().item() for s in ema.shadow):.6f}")


if __name__ == "__main__":
    main()
