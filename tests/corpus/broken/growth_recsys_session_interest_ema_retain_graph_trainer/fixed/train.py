"""Streaming next-item recommender for one long-lived user session.

The user-interest vector is an exponential moving average over the items
clicked so far; each incoming click batch updates it and the model is
trained to rank the next clicked item first."""
import torch
import torch.nn.functional as F

from model import NextItemScorer

N_ITEMS, DIM = 50, 12


class SessionTrainer:
    def __init__(self, model, decay=0.7, lr=0.01):
        self.model = model
        self.decay = decay
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.interest = torch.zeros(DIM)

    def step(self, clicked, next_item):
        fresh = self.model.embed_clicks(clicked)
        self.interest = self.decay * self.interest.detach() + (1 - self.decay) * fresh
        scores = self.model(self.interest)
        loss = F.cross_entropy(scores.unsqueeze(0), next_item.view(1))
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


def click_stream(n_steps, seed=0):
    g = torch.Generator().manual_seed(seed)
    taste = torch.randperm(N_ITEMS, generator=g)[:8]
    for _ in range(n_steps):
        picks = taste[torch.randint(0, len(taste), (4,), generator=g)]
        yield picks[:3], picks[3]


def main():
    torch.manual_seed(0)
    trainer = SessionTrainer(NextItemScorer(N_ITEMS, DIM))
    for i, (clicked, next_item) in enumerate(click_stream(10)):
        loss = trainer.step(clicked, next_item)
        print(f"event {i} loss {loss:.4f}")


if __name__ == "__main__":
    main()
