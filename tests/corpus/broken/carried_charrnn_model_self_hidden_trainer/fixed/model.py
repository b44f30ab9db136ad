"""Character-level RNN language model that remembers its last hidden state."""
import torch
import torch.nn as nn


class CharRNN(nn.Module):
    def __init__(self, vocab_size, emb_dim=12, hidden_size=24, num_layers=2):
        super().__init__()
        self.num_layers, self.hidden_size = num_layers, hidden_size
        self.embed = nn.Embedding(vocab_size, emb_dim)
        self.rnn = nn.RNN(emb_dim, hidden_size, num_layers=num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size, vocab_size)
        self.hidden = None

    def reset_state(self, batch_size):
        self.hidden = torch.zeros(self.num_layers, batch_size, self.hidden_size)

    def forward(self, tokens, hidden):
        out, hn = self.rnn(self.embed(tokens), hidden)
        self.hidden = hn.detach()
        return self.fc(out)
