"""BPR matrix factorisation for implicit feedback (music plays), with the loss averaged per
user first and then over users, so that heavy listeners do not dominate the gradient."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_TRACKS, DIM, BATCH, EPOCHS = 16, 60, 12, 48, 6


class BPRMF(nn.Module):
    def __init__(self):
        super().__init__()
        self.users = nn.Embedding(N_USERS, DIM)
        self.tracks = nn.Embedding(N_TRACKS, DIM)
        self.track_bias = nn.Embedding(N_TRACKS, 1)
        nn.init.normal_(self.users.weight, std=0.1)
        nn.init.normal_(self.tracks.weight, std=0.1)
        nn.init.zeros_(self.track_bias.weight)

    def score(self, u, i):
        return (self.users(u) * self.tracks(i)).sum(-1) + self.track_bias(i).squeeze(-1)


def play_log(gen):
    users = torch.randint(0, N_USERS, (400,), generator=gen)
    genre = users % 4                                    # each user sticks to one genre
    tracks = genre * 15 + torch.randint(0, 15, (400,), generator=gen)
    return users, tracks


def per_user_bpr(model, u, pos, neg):
    diff = model.score(u, pos) - model.score(u, neg)
    groups = defaultdict(list)
    for k, user in enumerate(u.tolist()):
        groups[user].append(k)
    return [-F.logsigmoid(diff[idx]).mean() for idx in groups.values()]


def train():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(9)
    users, tracks = play_log(gen)
    model = BPRMF()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(EPOCHS):
        perm = torch.randperm(users.numel(), generator=gen)[:BATCH * 2]
        epoch_loss = 0.0
        for start in range(0, perm.numel(), BATCH):
            idx = perm[start:start + BATCH]
            u, pos = users[idx], tracks[idx]
            neg = torch.randint(0, N_TRACKS, (idx.numel(),), generator=gen)
            user_losses = per_user_bpr(model, u, pos, neg)
            loss = torch.stack(user_losses).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
        print(f"epoch {epoch} bpr loss {epoch_loss / 2:.4f}")
    return model


if __name__ == "__main__":
    model = train()
    with torch.no_grad():
        print(f"param checksum {sum(p.abs().sum() for p in model.parameters()).item():.4f}")
