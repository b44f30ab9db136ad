"""Word-level LM built from stacked LSTMCells, so that a per-layer dropout and a residual
connection can be applied between the layers at every time step."""
import torch
import torch.nn as nn


class StackedCellLM(nn.Module):
    def __init__(self, vocab, emb=16, hidden=16, n_layers=2, dropout=0.1):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.cells = nn.ModuleList(
            [nn.LSTMCell(emb if i == 0 else hidden, hidden) for i in range(n_layers)])
        self.drop = nn.Dropout(dropout)
        self.decoder = nn.Linear(hidden, vocab)
        self.hidden = hidden

    def init_state(self, batch):
        """One (h, c) pair per layer."""
        return [(torch.zeros(batch, self.hidden), torch.zeros(batch, self.hidden))
                for _ in self.cells]

    def forward(self, tokens, state):
        state = list(state)
        outputs = []
        for t in range(tokens.size(0)):
            x = self.embed(tokens[t])
            for i, cell in enumerate(self.cells):
                h, c = cell(x, state[i])
                state[i] = (h, c)
                x = self.drop(h) + (x if i > 0 else 0)
            outputs.append(x)
        return self.decoder(torch.stack(outputs)), state
