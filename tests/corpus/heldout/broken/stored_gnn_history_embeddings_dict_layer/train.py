"""Node classification on a small stochastic-block graph with mini-batches of target nodes
and a SAGE layer that reuses historical embeddings of out-of-batch neighbours."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import SAGEWithHistory

N_NODES, IN_DIM, HIDDEN, N_CLASSES, BATCH = 24, 6, 16, 3, 8


def block_graph():
    labels = torch.arange(N_NODES) % N_CLASSES
    same = labels[:, None] == labels[None, :]
    probs = torch.where(same, torch.tensor(0.35), torch.tensor(0.05))
    upper = torch.triu((torch.rand(N_NODES, N_NODES) < probs).float(), diagonal=1)
    adjacency = upper + upper.t()
    features = F.one_hot(labels, N_CLASSES).float() @ torch.randn(N_CLASSES, IN_DIM)
    return features + 0.5 * torch.randn(N_NODES, IN_DIM), adjacency, labels


def main():
    torch.manual_seed(0)
    x, adjacency, labels = block_graph()
    sage = SAGEWithHistory(IN_DIM, HIDDEN)
    classifier = nn.Linear(HIDDEN, N_CLASSES)
    optimizer = torch.optim.Adam([*sage.parameters(), *classifier.parameters()], lr=1e-2)
    for epoch in range(2):
        perm = torch.randperm(N_NODES)
        for step, batch_nodes in enumerate(perm.split(BATCH)):
            logits = classifier(sage(x, batch_nodes, adjacency))
            loss = F.cross_entropy(logits, labels[batch_nodes])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"epoch {epoch} batch {step} loss {loss.item():.4f} cached {len(sage.history)}")


if __name__ == "__main__":
    main()
