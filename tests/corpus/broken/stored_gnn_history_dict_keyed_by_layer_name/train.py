"""Node classification on a synthetic two-community graph, trained on node mini-batches with
HistoryGCN so that each step only propagates the current batch."""
import torch
import torch.nn.functional as F

from model import HistoryGCN

N_NODES, IN_DIM, HIDDEN, N_CLASSES, BATCH = 30, 6, 16, 2, 10


def make_graph():
    labels = torch.arange(N_NODES) % N_CLASSES
    same = labels[:, None] == labels[None, :]
    probs = torch.where(same, torch.tensor(0.3), torch.tensor(0.03))
    adj = torch.bernoulli(probs).triu(1)
    adj = adj + adj.T + torch.eye(N_NODES)
    adj = adj / adj.sum(dim=1, keepdim=True)
    x = torch.randn(N_NODES, IN_DIM) + labels[:, None].float()
    return x, adj, labels


def main():
    torch.manual_seed(0)
    x, adj, labels = make_graph()
    model = HistoryGCN(N_NODES, IN_DIM, HIDDEN, N_CLASSES)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(1):
        for step, batch in enumerate(torch.randperm(N_NODES).split(BATCH)):
            logits = model(x, adj, batch)
            loss = F.cross_entropy(logits, labels[batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
