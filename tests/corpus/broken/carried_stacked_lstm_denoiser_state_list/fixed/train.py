"""Streaming speech-enhancement model: two stacked LSTMs predict a spectral mask frame by
frame; long utterances are cut into chunks and the recurrent state flows from chunk to chunk."""
import torch
import torch.nn as nn

N_BINS, HIDDEN, CHUNK = 12, 24, 6


class MaskEstimator(nn.Module):
    def __init__(self, n_bins=N_BINS, hidden=HIDDEN):
        super().__init__()
        self.lstms = nn.ModuleList([
            nn.LSTM(n_bins, hidden, batch_first=True),
            nn.LSTM(hidden, hidden, batch_first=True),
        ])
        self.mask = nn.Sequential(nn.Linear(hidden, n_bins), nn.Sigmoid())

    def init_states(self, batch):
        return [(torch.zeros(1, batch, l.hidden_size), torch.zeros(1, batch, l.hidden_size))
                for l in self.lstms]

    def forward(self, spec, states):
        x, new_states = spec, []
        for lstm, state in zip(self.lstms, states):
            x, state = lstm(x, state)
            new_states.append(state)
        return self.mask(x), new_states


def synth_utterances(batch, frames):
    clean = torch.rand(batch, frames, N_BINS) * torch.linspace(1.0, 0.2, N_BINS)
    noise = 0.3 * torch.rand(batch, frames, N_BINS)
    return clean, clean + noise


def train(n_chunks=5, batch=3):
    torch.manual_seed(0)
    model = MaskEstimator()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    clean, noisy = synth_utterances(batch, n_chunks * CHUNK)
    states = model.init_states(batch)
    for i in range(n_chunks):
        sl = slice(i * CHUNK, (i + 1) * CHUNK)
        states = [(h.detach(), c.detach()) for h, c in states]
        mask, states = model(noisy[:, sl], states)
        enhanced = mask * noisy[:, sl]
        loss = (enhanced - clean[:, sl]).abs().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"chunk {i}: L1 {loss.item():.4f}")


if __name__ == "__main__":
    train()
