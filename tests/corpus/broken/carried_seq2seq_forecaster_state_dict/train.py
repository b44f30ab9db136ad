"""Encoder-decoder GRU forecaster for hourly demand. The model returns its recurrent states
in a dict so a long history can be consumed window after window."""
import torch
import torch.nn as nn

torch.manual_seed(0)
LOOKBACK, HORIZON, N_WINDOWS, BATCH = 8, 4, 5, 4


class Seq2SeqForecaster(nn.Module):
    def __init__(self, n_features=3, hidden=16):
        super().__init__()
        self.encoder = nn.GRU(n_features, hidden, batch_first=True)
        self.decoder = nn.GRU(1, hidden, batch_first=True)
        self.proj = nn.Linear(hidden, 1)

    def forward(self, history, last_value, state):
        _, h_enc = self.encoder(history, state["enc"])
        h_dec = h_enc + state["dec"]
        step_in, preds = last_value, []
        for _ in range(HORIZON):
            out, h_dec = self.decoder(step_in, h_dec)
            step_in = self.proj(out)
            preds.append(step_in)
        return torch.cat(preds, 1), {"enc": h_enc, "dec": h_dec}


def make_series(length):
    t = torch.arange(length, dtype=torch.float32)
    base = torch.sin(t / 3.0) + 0.1 * torch.randn(BATCH, length)
    feats = torch.stack([base, torch.cos(t / 5.0).expand(BATCH, -1), (t % 24 / 24).expand(BATCH, -1)], -1)
    return feats, base.unsqueeze(-1)


model = Seq2SeqForecaster()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
loss_fn = nn.SmoothL1Loss()
feats, demand = make_series(N_WINDOWS * LOOKBACK + HORIZON)

state = {"enc": torch.zeros(1, BATCH, 16), "dec": torch.zeros(1, BATCH, 16)}
for w in range(N_WINDOWS):
    lo, hi = w * LOOKBACK, (w + 1) * LOOKBACK
    preds, state = model(feats[:, lo:hi], demand[:, hi - 1:hi], state)
    loss = loss_fn(preds, demand[:, hi:hi + HORIZON])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"window {w}: loss {loss.item():.4f}")
