import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

import ranking


class MF(nn.Module):
    def __init__(self, n_users, n_items, dim):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, dim)
        self.item_emb = nn.Embedding(n_items, dim)
        self.item_bias = nn.Embedding(n_items, 1)
        nn.init.normal_(self.user_emb.weight, std=0.1)
        nn.init.normal_(self.item_emb.weight, std=0.1)
        nn.init.zeros_(self.item_bias.weight)


def sample_triples(interactions, n_items, batch):
    idx = torch.randint(0, interactions.shape[0], (batch,))
    users, pos = interactions[idx, 0], interactions[idx, 1]
    neg = torch.randint(0, n_items, (batch,))
    return users, pos, neg


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dim", type=int, default=8)
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--l2", type=float, default=1e-4)
    args = parser.parse_args()

    torch.manual_seed(3)
    n_users, n_items = 20, 30
    interactions = torch.stack([torch.randint(0, n_users, (120,)),
                                torch.randint(0, n_items, (120,))], dim=1)
    model = MF(n_users, n_items, args.dim)
    optimizer = torch.optim.Adagrad(model.parameters(), lr=0.1, weight_decay=args.l2)

    for step in range(args.steps):
        users, pos, neg = sample_triples(interactions, n_items, 32)
        margin = ranking.pair_margin(model, users, pos, neg)
        loss = -F.logsigmoid(margin).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 2 == 1:
            auc = ranking.pairwise_auc(model, *sample_triples(interactions, n_items, 64))
            print(f"step {step} bpr {loss.item():.4f} auc {auc:.3f}")


if __name__ == "__main__":
    main()
