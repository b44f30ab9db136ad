import torch
import torch.nn as nn

from losses import nt_xent, world_mean


class SimCLR(nn.Module):
    def __init__(self, d_in=20, d_hid=32, d_proj=8):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d_in, d_hid), nn.ReLU(),
                                     nn.Linear(d_hid, d_hid), nn.ReLU())
        self.projector = nn.Sequential(nn.Linear(d_hid, d_hid), nn.ReLU(),
                                       nn.Linear(d_hid, d_proj))

    def forward(self, x):
        return self.projector(self.encoder(x))


def augment(x):
    keep = (torch.rand_like(x) > 0.2).float()
    return x * keep + 0.05 * torch.randn_like(x)


def train_epoch(model, optimizer, data, batch_size=16):
    losses = []
    for i in range(0, data.shape[0], batch_size):
        x = data[i:i + batch_size]
        loss = world_mean(nt_xent(model(augment(x)), model(augment(x))))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return sum(losses) / len(losses)


if __name__ == "__main__":
    torch.manual_seed(8)
    data = torch.randn(48, 20)
    model = SimCLR()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        print(f"epoch {epoch} nt-xent {train_epoch(model, optimizer, data):.4f}")
