"""Neural collaborative filtering (GMF + MLP towers) on implicit feedback. The catalogue
grew since the last snapshot, so the model is rebuilt with room for the new items and the
old embeddings are copied in before fine-tuning for a few steps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_USERS, OLD_ITEMS, NEW_ITEMS, DIM, STEPS = 30, 40, 8, 8, 6


class NCF(nn.Module):
    def __init__(self, n_users, n_items, dim=DIM):
        super().__init__()
        self.user_gmf, self.item_gmf = nn.Embedding(n_users, dim), nn.Embedding(n_items, dim)
        self.user_mlp, self.item_mlp = nn.Embedding(n_users, dim), nn.Embedding(n_items, dim)
        self.mlp = nn.Sequential(nn.Linear(2 * dim, 16), nn.ReLU(), nn.Linear(16, dim))
        self.out = nn.Linear(2 * dim, 1)

    def forward(self, users, items):
        gmf = self.user_gmf(users) * self.item_gmf(items)
        mlp = self.mlp(torch.cat([self.user_mlp(users), self.item_mlp(items)], dim=1))
        return self.out(torch.cat([gmf, mlp], dim=1)).squeeze(1)


def with_new_items(model, n_new):
    """A model with n_new more item rows; known rows and all other weights are copied."""
    old_state = model.state_dict()
    n_items = old_state["item_gmf.weight"].shape[0] + n_new
    grown = NCF(old_state["user_gmf.weight"].shape[0], n_items)
    state = grown.state_dict()
    for name, value in old_state.items():
        if name.startswith("item_"):
            state[name][: value.shape[0]] = value
        else:
            state[name] = value
    grown.load_state_dict(state)
    return grown


def interactions(n, n_items):
    users = torch.randint(0, N_USERS, (n,))
    items = torch.randint(0, n_items, (n,))
    clicked = ((users % 4) == (items % 4)).float()
    return users, items, clicked


def main():
    model = NCF(N_USERS, OLD_ITEMS)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    model = with_new_items(model, NEW_ITEMS)
    users, items, clicked = interactions(256, OLD_ITEMS + NEW_ITEMS)
    for step in range(STEPS):
        logits = model(users, items)
        loss = F.binary_cross_entropy_with_logits(logits, clicked)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} bce {loss.item():.4f}")
    return model


if __name__ == "__main__":
    trained = main()
    print(f"checksum {sum(p.sum().item() for p in trained.parameters()):.4f}")
