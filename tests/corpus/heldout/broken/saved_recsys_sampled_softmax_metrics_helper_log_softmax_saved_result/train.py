"""Two-tower candidate ranker for a news feed: a user tower over the last clicked articles and
an article tower over id + section; each impression is scored against the clicked article and
7 shown-but-skipped ones, trained with a softmax over the candidate list."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from metrics import report

N_USERS, N_ARTICLES, N_SECTIONS, DIM, HIST, N_CAND, BATCH, STEPS = 20, 50, 5, 16, 4, 8, 24, 5


class UserTower(nn.Module):
    def __init__(self, article_emb):
        super().__init__()
        self.article_emb = article_emb
        self.user_emb = nn.Embedding(N_USERS, DIM)
        self.mix = nn.Sequential(nn.Linear(2 * DIM, DIM), nn.Tanh())

    def forward(self, users, history):
        clicked = self.article_emb(history).mean(dim=1)
        return self.mix(torch.cat([self.user_emb(users), clicked], dim=1))


class ArticleTower(nn.Module):
    def __init__(self, article_emb):
        super().__init__()
        self.article_emb = article_emb
        self.section_emb = nn.Embedding(N_SECTIONS, DIM)
        self.proj = nn.Linear(DIM, DIM)

    def forward(self, articles):
        return self.proj(self.article_emb(articles) + self.section_emb(articles % N_SECTIONS))


class NewsRanker(nn.Module):
    def __init__(self):
        super().__init__()
        shared = nn.Embedding(N_ARTICLES, DIM)
        self.users, self.articles = UserTower(shared), ArticleTower(shared)

    def forward(self, users, history, candidates):
        u = self.users(users, history)                                  # (B, D)
        return torch.einsum("bd,bcd->bc", u, self.articles(candidates)) / DIM ** 0.5


def impressions(gen):
    users = torch.randint(0, N_USERS, (BATCH,), generator=gen)
    history = (users.unsqueeze(1) * 2 + torch.arange(HIST)) % N_ARTICLES
    clicked = (history[:, -1] + 1) % N_ARTICLES
    skipped = torch.randint(0, N_ARTICLES, (BATCH, N_CAND - 1), generator=gen)
    return users, history, torch.cat([clicked.unsqueeze(1), skipped], dim=1)


torch.manual_seed(0)
gen = torch.Generator().manual_seed(2)
model = NewsRanker()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(STEPS):
    users, history, candidates = impressions(gen)
    scores = model(users, history, candidates)
    log_probs = F.log_softmax(scores, dim=1)
    nll = F.nll_loss(log_probs, torch.zeros(BATCH, dtype=torch.long))
    optimizer.zero_grad()
    nll.backward()
    optimizer.step()
    stats = report(step, nll)
    print(" ".join(f"{k} {v:.4f}" if isinstance(v, float) else f"{k} {v}" for k, v in stats.items()))
