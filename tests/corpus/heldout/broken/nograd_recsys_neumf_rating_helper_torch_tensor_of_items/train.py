"""NeuMF-style rating model (GMF branch + MLP branch) for a small movie-ratings matrix,
trained with MSE on the star ratings."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from scoring import predict_ratings, rmse

N_USERS, N_MOVIES, DIM, BATCH, EPOCHS = 25, 40, 8, 50, 3


class NeuMF(nn.Module):
    def __init__(self):
        super().__init__()
        self.gmf_user, self.gmf_item = nn.Embedding(N_USERS, DIM), nn.Embedding(N_MOVIES, DIM)
        self.mlp_user, self.mlp_item = nn.Embedding(N_USERS, DIM), nn.Embedding(N_MOVIES, DIM)
        self.mlp = nn.Sequential(nn.Linear(2 * DIM, 16), nn.ReLU(), nn.Linear(16, 8), nn.ReLU())
        self.out = nn.Linear(DIM + 8, 1)
        nn.init.constant_(self.out.bias, 3.5)

    def forward(self, users, items):
        gmf = self.gmf_user(users) * self.gmf_item(items)
        mlp = self.mlp(torch.cat([self.mlp_user(users), self.mlp_item(items)], dim=1))
        return self.out(torch.cat([gmf, mlp], dim=1)).squeeze(1)


def ratings_table(gen):
    users = torch.randint(0, N_USERS, (150,), generator=gen)
    movies = torch.randint(0, N_MOVIES, (150,), generator=gen)
    taste = torch.randn(N_USERS, 3, generator=gen) @ torch.randn(3, N_MOVIES, generator=gen)
    stars = (3.5 + taste[users, movies]).round().clamp(1, 5)
    return users, movies, stars


def train():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(8)
    users, movies, stars = ratings_table(gen)
    model = NeuMF()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(EPOCHS):
        perm = torch.randperm(users.numel(), generator=gen)
        for start in range(0, users.numel(), BATCH):
            idx = perm[start:start + BATCH]
            pred = predict_ratings(model, users[idx], movies[idx])
            loss = F.mse_loss(pred, stars[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} train rmse {rmse(pred, stars[idx]):.4f}")


if __name__ == "__main__":
    train()
