"""Session-based next-item recommender (GRU4Rec-style) trained on long browsing sessions
cut into windows, with one optimizer step per window."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from stream import session_windows

N_ITEMS, EMB, HIDDEN, SESSION_LEN, WINDOW, BATCH = 30, 16, 24, 13, 4, 6


class SessionGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.items = nn.Embedding(N_ITEMS, EMB)
        self.gru = nn.GRU(EMB, HIDDEN, batch_first=True)
        self.out = nn.Linear(HIDDEN, N_ITEMS)

    def forward(self, item_ids, hidden=None):
        states, hidden = self.gru(self.items(item_ids), hidden)
        return self.out(states), hidden


def browsing_sessions(n_batches, gen):
    """Sessions drift through neighbouring items of a catalogue laid out by category."""
    batches = []
    for _ in range(n_batches):
        start = torch.randint(0, N_ITEMS, (BATCH, 1), generator=gen)
        steps = torch.randint(-2, 4, (BATCH, SESSION_LEN - 1), generator=gen)
        walk = torch.cat([start, start + steps.cumsum(dim=1)], dim=1)
        batches.append(walk.remainder(N_ITEMS))
    return batches


def train(model, batches, epochs=2):
    optimizer = torch.optim.Adagrad(model.parameters(), lr=0.05)
    for epoch in range(epochs):
        total, windows = 0.0, 0
        for clicks in batches:
            for logits, next_items in session_windows(model, clicks, WINDOW):
                loss = F.cross_entropy(logits.reshape(-1, N_ITEMS), next_items.reshape(-1))
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                total, windows = total + loss.item(), windows + 1
        print(f"epoch {epoch} next-item loss {total / windows:.4f} over {windows} windows")


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(9)
    train(SessionGRU(), browsing_sessions(2, gen))


if __name__ == "__main__":
    main()
