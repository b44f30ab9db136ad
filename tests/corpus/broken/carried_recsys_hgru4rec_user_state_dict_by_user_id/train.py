"""Personalised session-based recommendation in the spirit of HGRU4Rec.

A session-level GRU predicts the next item inside a session. A user-level GRU summarises the
user's past sessions; its state initialises the session GRU when the user comes back. Each
training step processes the next session of every user in the batch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ITEMS, EMB, SESSION_HID, USER_HID, SESSION_LEN = 40, 16, 24, 24, 5
USERS = [101, 102, 103, 104]


class HierarchicalGRURec(nn.Module):
    def __init__(self):
        super().__init__()
        self.item_emb = nn.Embedding(N_ITEMS, EMB)
        self.session_gru = nn.GRU(EMB, SESSION_HID, batch_first=True)
        self.user_gru = nn.GRUCell(SESSION_HID, USER_HID)
        self.init_session = nn.Sequential(nn.Linear(USER_HID, SESSION_HID), nn.Tanh())
        self.out = nn.Linear(SESSION_HID, N_ITEMS)

    def update_user(self, last_session_repr, user_repr):
        return self.user_gru(last_session_repr, user_repr)

    def forward(self, items, user_repr):
        h0 = self.init_session(user_repr).unsqueeze(0)
        out, h_last = self.session_gru(self.item_emb(items), h0)
        return self.out(out), h_last.squeeze(0)


def user_sessions(n_sessions):
    """Each user browses around a favourite block of items."""
    sessions = {}
    for u in USERS:
        base = (u * 7) % (N_ITEMS - 10)
        sessions[u] = [base + torch.randint(0, 10, (SESSION_LEN + 1,)) for _ in range(n_sessions)]
    return sessions


def train(n_sessions=5):
    torch.manual_seed(0)
    model = HierarchicalGRURec()
    optimizer = torch.optim.Adagrad(model.parameters(), lr=0.05)
    sessions = user_sessions(n_sessions)
    user_state = {u: torch.zeros(USER_HID) for u in USERS}
    last_session = {u: torch.zeros(SESSION_HID) for u in USERS}
    for k in range(n_sessions):
        batch = torch.stack([sessions[u][k] for u in USERS])
        inputs, targets = batch[:, :-1], batch[:, 1:]
        prev_users = torch.stack([user_state[u] for u in USERS])
        prev_sessions = torch.stack([last_session[u] for u in USERS])
        user_repr = model.update_user(prev_sessions, prev_users)
        logits, h_last = model(inputs, user_repr)
        loss = F.cross_entropy(logits.reshape(-1, N_ITEMS), targets.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        for i, u in enumerate(USERS):
            user_state[u] = user_repr[i]
            last_session[u] = h_last[i].detach()
        hits = (logits[:, -1].topk(5).indices == targets[:, -1:]).any(1).float().mean()
        print(f"session {k} loss {loss.item():.4f} recall@5 {hits.item():.2f}")
    return model


if __name__ == "__main__":
    train()
