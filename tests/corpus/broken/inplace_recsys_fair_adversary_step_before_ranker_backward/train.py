"""Fairness-aware matrix-factorisation recommender: an adversary tries to recover a
protected user attribute from the user embedding while the ranker learns to predict ratings
and to fool the adversary (adversarial debiasing)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, DIM, LAMBDA_ADV = 50, 40, 12, 0.5


class FairMFTrainer:
    def __init__(self):
        self.user_emb = nn.Embedding(N_USERS, DIM)
        self.item_emb = nn.Embedding(N_ITEMS, DIM)
        self.item_bias = nn.Embedding(N_ITEMS, 1)
        self.adversary = nn.Sequential(nn.Linear(DIM, 16), nn.ReLU(), nn.Linear(16, 1))
        ranker_params = [*self.user_emb.parameters(), *self.item_emb.parameters(),
                         *self.item_bias.parameters()]
        self.opt_rank = torch.optim.Adam(ranker_params, lr=1e-2)
        self.opt_adv = torch.optim.Adam(self.adversary.parameters(), lr=5e-3)
        self.history = []

    def step(self, users, items, ratings, attr):
        u = self.user_emb(users)
        pred = (u * self.item_emb(items)).sum(1) + self.item_bias(items).squeeze(1)
        rating_loss = F.mse_loss(pred, ratings)
        attr_logits = self.adversary(u).squeeze(1)
        adv_loss = F.binary_cross_entropy_with_logits(attr_logits, attr)

        self.opt_adv.zero_grad()
        adv_loss.backward(retain_graph=True)
        self.opt_adv.step()

        self.opt_rank.zero_grad()
        (rating_loss - LAMBDA_ADV * adv_loss).backward()
        self.opt_rank.step()
        self.history.append((rating_loss.item(), adv_loss.item()))
        return self.history[-1]


def make_ratings(n, gen):
    users = torch.randint(0, N_USERS, (n,), generator=gen)
    items = torch.randint(0, N_ITEMS, (n,), generator=gen)
    attr = (users % 2).float()
    taste = torch.sin(users.float() * 0.7) * torch.cos(items.float() * 0.3)
    ratings = 3.0 + 1.5 * taste + 0.3 * attr + 0.1 * torch.randn(n, generator=gen)
    return users, items, ratings, attr


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(7)
    trainer = FairMFTrainer()
    for epoch in range(3):
        for batch in range(2):
            rating_loss, adv_loss = trainer.step(*make_ratings(128, gen))
        print(f"epoch {epoch} rating mse {rating_loss:.4f} adversary bce {adv_loss:.4f}")


if __name__ == "__main__":
    main()
