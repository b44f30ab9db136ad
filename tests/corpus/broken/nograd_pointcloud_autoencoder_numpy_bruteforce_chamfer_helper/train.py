"""Point-cloud autoencoder (PointNet encoder, MLP decoder) on spheres, cylinders and cube
surfaces, 64 points per cloud, trained to reconstruct its input under the Chamfer distance."""
import torch
import torch.nn as nn

from geometry import chamfer_distance, sample_shape

torch.manual_seed(0)
N_POINTS, LATENT = 64, 32


class PointAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv1d(3, 32, 1), nn.ReLU(), nn.Conv1d(32, LATENT, 1))
        self.decoder = nn.Sequential(nn.Linear(LATENT, 128), nn.ReLU(),
                                     nn.Linear(128, N_POINTS * 3))

    def forward(self, clouds):
        code = self.encoder(clouds.transpose(1, 2)).max(dim=2).values
        return self.decoder(code).view(-1, N_POINTS, 3)


def make_dataset(n, gen):
    kinds = torch.randint(0, 3, (n,), generator=gen)
    clouds = torch.stack([sample_shape(int(k), N_POINTS, gen) for k in kinds])
    scale = 0.7 + 0.6 * torch.rand(n, 1, 1, generator=gen)
    return clouds * scale


def train_one_epoch(model, optimizer, clouds, batch=16):
    perm = torch.randperm(len(clouds))
    total = 0.0
    for i in range(0, len(clouds), batch):
        x = clouds[perm[i:i + batch]]
        recon = model(x)
        loss = chamfer_distance(recon, x)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(x)
    return total / len(clouds)


def main():
    gen = torch.Generator().manual_seed(0)
    train_clouds, test_clouds = make_dataset(48, gen), make_dataset(16, gen)
    model = PointAE()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(3):
        train_cd = train_one_epoch(model, optimizer, train_clouds)
        with torch.no_grad():
            test_cd = chamfer_distance(model(test_clouds), test_clouds).item()
        print(f"epoch {epoch} train chamfer {train_cd:.4f} test chamfer {test_cd:.4f}")


if __name__ == "__main__":
    main()
