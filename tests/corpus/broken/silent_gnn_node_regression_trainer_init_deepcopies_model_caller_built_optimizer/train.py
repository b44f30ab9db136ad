import torch
import torch.nn as nn

from trainer import NodeTrainer


class GCNLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)

    def forward(self, x, adj_norm):
        return adj_norm @ self.lin(x)


class GCNRegressor(nn.Module):
    def __init__(self, d_in, d_hid):
        super().__init__()
        self.conv1 = GCNLayer(d_in, d_hid)
        self.conv2 = GCNLayer(d_hid, d_hid)
        self.out = nn.Linear(d_hid, 1)

    def forward(self, x, adj_norm):
        h = torch.relu(self.conv1(x, adj_norm))
        h = torch.relu(self.conv2(h, adj_norm))
        return self.out(h).squeeze(-1)


def normalised_adjacency(n, p=0.15):
    a = (torch.rand(n, n) < p).float()
    a = ((a + a.t()) > 0).float() + torch.eye(n)
    d = a.sum(1).rsqrt()
    return d[:, None] * a * d[None, :]


@torch.no_grad()
def evaluate(model, x, adj, y, mask):
    return nn.functional.mse_loss(model(x, adj)[mask], y[mask]).item()


if __name__ == "__main__":
    torch.manual_seed(9)
    n = 30
    adj = normalised_adjacency(n)
    x = torch.randn(n, 5)
    y = adj @ x[:, 0] + 0.1 * torch.randn(n)
    train_mask = torch.rand(n) < 0.6

    model = GCNRegressor(5, 16)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=5e-4)
    trained = NodeTrainer(model, optimizer, adj).fit(x, y, train_mask)
    print(f"baseline test mse {evaluate(model, x, adj, y, ~train_mask):.4f}")
    print(f"trained  test mse {evaluate(trained, x, adj, y, ~train_mask):.4f}")
