"""Session-based next-item recommender: every user has an interest vector, kept as a module
buffer, that decays and absorbs the encoded features of each item the user clicks; the
next item is scored against the updated interest. retain_graph=True was added when the
second batch stopped with "Trying to backward through the graph a second time"."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_USERS, N_ITEMS, ITEM_FEATS, DIM, BATCH = 12, 30, 10, 16, 16


class SessionInterest(nn.Module):
    def __init__(self, decay=0.8):
        super().__init__()
        self.decay = decay
        self.click_encoder = nn.Linear(ITEM_FEATS, DIM)
        self.item_emb = nn.Embedding(N_ITEMS, DIM)
        self.register_buffer("interest", torch.zeros(N_USERS, DIM))

    def forward(self, users, clicked_feats):
        update = self.click_encoder(clicked_feats)
        self.interest = self.decay * self.interest.detach().index_add(0, users, update)
        return torch.tanh(self.interest[users]) @ self.item_emb.weight.t()


def click_batches(item_feats, n_batches):
    for _ in range(n_batches):
        users = torch.randint(0, N_USERS, (BATCH,))
        clicked = torch.randint(0, N_ITEMS, (BATCH,))
        next_item = (clicked + users % 3 + 1) % N_ITEMS
        yield users, item_feats[clicked], next_item


item_feats = torch.randn(N_ITEMS, ITEM_FEATS)
model = SessionInterest()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for step, (users, feats, next_item) in enumerate(click_batches(item_feats, 8)):
    scores = model(users, feats)
    loss = F.cross_entropy(scores, next_item)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")
