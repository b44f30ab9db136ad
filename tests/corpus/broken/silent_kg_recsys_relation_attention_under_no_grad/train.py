"""BPR training of the knowledge-aware recommender on a synthetic catalogue: users like
items whose brand entity matches their taste; every item has K knowledge-graph edges."""
import torch
import torch.nn.functional as F

from model import KnowledgeAwareRecommender

torch.manual_seed(0)
N_USERS, N_ITEMS, N_BRANDS, N_CATS, K = 30, 40, 5, 6, 3
N_ENTITIES, N_RELATIONS = N_BRANDS + N_CATS + 8, 3


def build_graph():
    brand = torch.randint(0, N_BRANDS, (N_ITEMS,))
    category = N_BRANDS + torch.randint(0, N_CATS, (N_ITEMS,))
    noise = N_BRANDS + N_CATS + torch.randint(0, 8, (N_ITEMS,))
    neighbours = torch.stack([brand, category, noise], dim=1)
    relations = torch.tensor([0, 1, 2]).expand(N_ITEMS, K)
    return brand, neighbours, relations


def sample_triples(brand, taste, n):
    users = torch.randint(0, N_USERS, (n,))
    pos, neg = torch.empty(n, dtype=torch.long), torch.empty(n, dtype=torch.long)
    for i, u in enumerate(users.tolist()):
        liked = (brand == taste[u]).nonzero().flatten()
        others = (brand != taste[u]).nonzero().flatten()
        pos[i] = liked[torch.randint(len(liked), (1,))] if len(liked) else 0
        neg[i] = others[torch.randint(len(others), (1,))]
    return users, pos, neg


def train(model, brand, neighbours, relations, taste, steps=6, batch=64):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(steps):
        users, pos, neg = sample_triples(brand, taste, batch)
        pos_s = model.score(users, pos, neighbours[pos], relations[pos])
        neg_s = model.score(users, neg, neighbours[neg], relations[neg])
        loss = -F.logsigmoid(pos_s - neg_s).mean() + 1e-4 * model.user_emb(users).pow(2).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        auc = (pos_s > neg_s).float().mean().item()
        print(f"step {step} bpr {loss.item():.4f} pairwise-acc {auc:.2f}")


brand, neighbours, relations = build_graph()
taste = torch.randint(0, N_BRANDS, (N_USERS,))
model = KnowledgeAwareRecommender(N_USERS, N_ITEMS, N_ENTITIES, N_RELATIONS)
train(model, brand, neighbours, relations, taste)
