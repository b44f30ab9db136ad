"""Full-batch GCN node classification. The trainer keeps an exponential moving average of the
model's logits over epochs and reports validation accuracy of that smoothed prediction, which
is less noisy than the per-epoch one under dropout."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_NODES, N_FEATS, N_CLASSES, HIDDEN = 60, 16, 4, 32


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin1 = nn.Linear(N_FEATS, HIDDEN)
        self.lin2 = nn.Linear(HIDDEN, N_CLASSES)

    def forward(self, x, a_hat):
        h = F.dropout(F.relu(a_hat @ self.lin1(x)), p=0.5, training=self.training)
        return a_hat @ self.lin2(h)


class NodeTrainer:
    def __init__(self, model, a_hat, feats, labels, train_mask, val_mask, ema_decay=0.8):
        self.model, self.a_hat, self.feats, self.labels = model, a_hat, feats, labels
        self.train_mask, self.val_mask = train_mask, val_mask
        self.optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
        self.ema_decay = ema_decay
        self.ema_logits = torch.zeros(len(labels), N_CLASSES)

    def accuracy(self, logits, mask):
        return (logits[mask].argmax(1) == self.labels[mask]).float().mean().item()

    def train_epoch(self, epoch):
        self.model.train()
        logits = self.model(self.feats, self.a_hat)
        loss = F.cross_entropy(logits[self.train_mask], self.labels[self.train_mask])
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.ema_logits = self.ema_decay * self.ema_logits + (1 - self.ema_decay) * logits
        print(f"epoch {epoch}: loss {loss.item():.4f} train acc "
              f"{self.accuracy(logits, self.train_mask):.3f} smoothed val acc "
              f"{self.accuracy(self.ema_logits, self.val_mask):.3f}")

    def fit(self, epochs):
        for epoch in range(epochs):
            self.train_epoch(epoch)


def sbm_graph():
    labels = torch.arange(N_NODES) % N_CLASSES
    same = labels[:, None] == labels[None, :]
    adj = torch.triu((torch.rand(N_NODES, N_NODES) < torch.where(same, 0.25, 0.02)).float(), 1)
    adj = adj + adj.t() + torch.eye(N_NODES)
    d = adj.sum(1).rsqrt()
    feats = F.one_hot(labels, N_FEATS).float() + torch.randn(N_NODES, N_FEATS)
    return d[:, None] * adj * d[None, :], feats, labels


torch.manual_seed(0)
a_hat, feats, labels = sbm_graph()
train_mask = torch.rand(N_NODES) < 0.4
trainer = NodeTrainer(GCN(), a_hat, feats, labels, train_mask, ~train_mask)
trainer.fit(epochs=10)
