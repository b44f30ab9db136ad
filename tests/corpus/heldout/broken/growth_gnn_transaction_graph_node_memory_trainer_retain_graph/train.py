"""Fraud detection on a stream of daily transaction graphs. Each account keeps a memory vector
that aggregates the messages of the transactions it took part in (decayed day by day); a
one-layer graph convolution over today's graph plus the memory classifies accounts."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_ACCOUNTS, FEAT, EDGE_FEAT, MEM, HIDDEN, N_EDGES = 30, 6, 4, 12, 16, 90
MEMORY_DECAY = 0.7


class MemoryGCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.message = nn.Linear(EDGE_FEAT, MEM)
        self.conv = nn.Linear(FEAT, HIDDEN)
        self.classify = nn.Linear(HIDDEN + MEM, 2)

    def messages(self, edge_attr):
        return F.relu(self.message(edge_attr))

    def forward(self, x, adj_norm, memory):
        h = F.relu(adj_norm @ self.conv(x))
        return self.classify(torch.cat([h, memory], dim=1))


def daily_graph(fraudsters):
    src = torch.randint(0, N_ACCOUNTS, (N_EDGES,))
    dst = torch.randint(0, N_ACCOUNTS, (N_EDGES,))
    amount = torch.rand(N_EDGES, 1) + 2.0 * fraudsters[src].float()[:, None]
    edge_attr = torch.cat([amount, torch.rand(N_EDGES, EDGE_FEAT - 1)], dim=1)
    adj = torch.eye(N_ACCOUNTS)
    adj[src, dst] = 1.0
    adj[dst, src] = 1.0
    adj_norm = adj / adj.sum(1, keepdim=True)
    x = torch.randn(N_ACCOUNTS, FEAT) + fraudsters.float()[:, None]
    return x, adj_norm, src, dst, edge_attr


class StreamTrainer:
    def __init__(self):
        self.model = MemoryGCN()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=5e-3)
        self.memory = torch.zeros(N_ACCOUNTS, MEM)
        self.fraudsters = torch.rand(N_ACCOUNTS) < 0.2

    def update_memory(self, src, dst, edge_attr):
        msg = self.model.messages(edge_attr)
        inbox = torch.zeros(N_ACCOUNTS, MEM).index_add(0, src, msg).index_add(0, dst, msg)
        self.memory = MEMORY_DECAY * self.memory + (1 - MEMORY_DECAY) * inbox

    def train_day(self, day):
        x, adj_norm, src, dst, edge_attr = daily_graph(self.fraudsters)
        self.update_memory(src, dst, edge_attr)
        logits = self.model(x, adj_norm, self.memory)
        loss = F.cross_entropy(logits, self.fraudsters.long(), weight=torch.tensor([1.0, 3.0]))
        self.optimizer.zero_grad()
        loss.backward(retain_graph=True)
        self.optimizer.step()
        recall = (logits.argmax(1)[self.fraudsters] == 1).float().mean().item()
        print(f"day {day}  loss {loss.item():.4f}  fraud recall {recall:.2f}")


def main(days=10):
    trainer = StreamTrainer()
    for day in range(days):
        trainer.train_day(day)


if __name__ == "__main__":
    main()
