"""GraphSAGE (mean aggregator) node classifier on a synthetic co-purchase graph,
trained full-batch with a small fit() loop that drives Keras-style callbacks."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import EarlyStopping, LossHistory

N, FEAT, CLASSES = 120, 16, 4


class SAGELayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.self_lin = nn.Linear(in_dim, out_dim)
        self.neigh_lin = nn.Linear(in_dim, out_dim, bias=False)

    def forward(self, x, adj_mean):
        return self.self_lin(x) + self.neigh_lin(adj_mean @ x)


class GraphSAGE(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.conv1 = SAGELayer(FEAT, hidden)
        self.conv2 = SAGELayer(hidden, CLASSES)

    def forward(self, x, adj_mean):
        h = F.dropout(F.relu(self.conv1(x, adj_mean)), 0.2, self.training)
        return self.conv2(h, adj_mean)


def make_graph(gen):
    y = torch.randint(0, CLASSES, (N,), generator=gen)
    p = torch.where(y[:, None] == y[None, :], 0.08, 0.01)
    adj = (torch.rand(N, N, generator=gen) < p).float()
    adj = ((adj + adj.t()) > 0).float()
    adj_mean = adj / adj.sum(1, keepdim=True).clamp(min=1)
    x = F.one_hot(y, CLASSES).float() @ torch.randn(CLASSES, FEAT, generator=gen)
    x = x + 2.0 * torch.randn(N, FEAT, generator=gen)
    split = torch.rand(N, generator=gen)
    return x, adj_mean, y, split < 0.5, split >= 0.5


def fit(model, data, epochs, callbacks):
    x, adj_mean, y, train_mask, val_mask = data
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=5e-4)
    for epoch in range(epochs):
        model.train()
        out = model(x, adj_mean)
        loss = F.cross_entropy(out[train_mask], y[train_mask])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        model.eval()
        with torch.no_grad():
            out = model(x, adj_mean)
            val_loss = F.cross_entropy(out[val_mask], y[val_mask]).item()
            val_acc = (out[val_mask].argmax(1) == y[val_mask]).float().mean().item()
        logs = {"loss": loss, "val_loss": val_loss, "val_acc": val_acc}
        print(f"epoch {epoch:02d} loss {loss.item():.4f} val loss {val_loss:.4f} val acc {val_acc:.3f}")
        for cb in callbacks:
            cb.on_epoch_end(epoch, logs)
        if any(getattr(cb, "stop", False) for cb in callbacks):
            break
    for cb in callbacks:
        cb.on_train_end()


if __name__ == "__main__":
    torch.manual_seed(0)
    data = make_graph(torch.Generator().manual_seed(9))
    fit(GraphSAGE(), data, epochs=10, callbacks=[LossHistory(), EarlyStopping(patience=4)])
