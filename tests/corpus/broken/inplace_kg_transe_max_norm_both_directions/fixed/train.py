"""TransE-style knowledge-graph completion with 1-N scoring: a (head, relation) query is
scored against every entity at once, and so is a (relation, tail) query for head
prediction. Entity embeddings are kept inside the unit ball with max_norm, as in TransE."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ENTITIES, N_RELATIONS, DIM = 20, 3, 12


class TransE(nn.Module):
    def __init__(self):
        super().__init__()
        self.ent = nn.Embedding(N_ENTITIES, DIM, max_norm=1.0)
        self.rel = nn.Embedding(N_RELATIONS, DIM)

    def score_tails(self, heads, rels):
        query = self.ent(heads) + self.rel(rels)
        return -torch.cdist(query, self.ent.weight.clone())

    def score_heads(self, rels, tails):
        query = self.ent(tails) - self.rel(rels)
        return -torch.cdist(query, self.ent.weight.clone())


def make_triples(n):
    # relation r links entity e to entity (e + r + 1) mod N: a toy "next-of-kind" graph
    heads = torch.randint(0, N_ENTITIES, (n,))
    rels = torch.randint(0, N_RELATIONS, (n,))
    tails = (heads + rels + 1) % N_ENTITIES
    return heads, rels, tails


def main():
    torch.manual_seed(0)
    model = TransE()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
    for step in range(6):
        heads, rels, tails = make_triples(32)
        tail_loss = F.cross_entropy(model.score_tails(heads, rels), tails)
        head_loss = F.cross_entropy(model.score_heads(rels, tails), heads)
        loss = tail_loss + head_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} tail {tail_loss.item():.4f} head {head_loss.item():.4f}")


if __name__ == "__main__":
    main()
