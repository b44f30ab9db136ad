"""Point-cloud completion (PCN-style): from a partial scan, predict a coarse skeleton of the
full shape and refine it with per-point folding offsets. Training is supervised with the
Chamfer distance at both resolutions; a meters object averages each term over the epoch."""
import torch
import torch.nn as nn

N_PARTIAL, N_FULL, N_COARSE, FOLD, BATCH = 32, 64, 16, 4, 6


def chamfer(a, b):
    d = torch.cdist(a, b)
    return d.min(dim=2).values.pow(2).mean() + d.min(dim=1).values.pow(2).mean()


class Completer(nn.Module):
    def __init__(self, feat=48):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv1d(3, 32, 1), nn.ReLU(), nn.Conv1d(32, feat, 1))
        self.coarse = nn.Sequential(nn.Linear(feat, 64), nn.ReLU(), nn.Linear(64, N_COARSE * 3))
        self.fold = nn.Sequential(nn.Linear(feat + 3 + 2, 32), nn.ReLU(), nn.Linear(32, 3))
        grid = torch.stack(torch.meshgrid(torch.linspace(-0.05, 0.05, 2),
                                          torch.linspace(-0.05, 0.05, 2), indexing="ij"), -1)
        self.register_buffer("grid", grid.reshape(FOLD, 2))

    def forward(self, partial):
        g = self.encoder(partial.transpose(1, 2)).max(dim=2).values
        coarse = self.coarse(g).reshape(-1, N_COARSE, 3)
        b = partial.size(0)
        seeds = coarse[:, :, None, :].expand(b, N_COARSE, FOLD, 3)
        codes = g[:, None, None, :].expand(b, N_COARSE, FOLD, g.size(1))
        grid = self.grid[None, None].expand(b, N_COARSE, FOLD, 2)
        fine = seeds + self.fold(torch.cat([codes, seeds, grid], dim=3))
        return coarse, fine.reshape(b, N_COARSE * FOLD, 3)


class LossMeters:
    def __init__(self, names):
        self.totals = {name: 0.0 for name in names}
        self.count = 0

    def update(self, values, n):
        for name, value in values.items():
            self.totals[name] = self.totals[name] + value * n
        self.count += n

    def summary(self):
        return " ".join(f"{k} {float(v) / self.count:.4f}" for k, v in self.totals.items())


def shapes(gen, n):
    """Ellipsoid surfaces with random radii; the partial scan keeps the points facing +x."""
    full = []
    for _ in range(n):
        radii = 0.5 + torch.rand(3, generator=gen)
        full.append(nn.functional.normalize(torch.randn(N_FULL, 3, generator=gen), dim=1) * radii)
    full = torch.stack(full)
    order = full[:, :, 0].argsort(dim=1, descending=True)
    partial = torch.gather(full, 1, order[:, :N_PARTIAL, None].expand(-1, -1, 3))
    return partial, full


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(8)
    data = [shapes(gen, BATCH) for _ in range(4)]
    model = Completer()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        meters = LossMeters(["cd_coarse", "cd_fine"])
        for partial, full in data:
            coarse, fine = model(partial)
            cd_coarse, cd_fine = chamfer(coarse, full), chamfer(fine, full)
            loss = cd_coarse + cd_fine
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            meters.update({"cd_coarse": cd_coarse, "cd_fine": cd_fine}, partial.size(0))
        print(f"epoch {epoch} {meters.summary()}")


if __name__ == "__main__":
    main()
