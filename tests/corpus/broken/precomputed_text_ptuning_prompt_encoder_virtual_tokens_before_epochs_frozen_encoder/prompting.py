"""P-tuning pieces: a reparameterised prompt encoder (embedding -> MLP) that produces the
virtual-token embeddings, and a helper that prepends them to the token embeddings."""
import torch
import torch.nn as nn


class PromptEncoder(nn.Module):
    def __init__(self, n_virtual, d_model, hidden=32):
        super().__init__()
        self.register_buffer("ids", torch.arange(n_virtual))
        self.embedding = nn.Embedding(n_virtual, d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, hidden), nn.ReLU(), nn.Linear(hidden, d_model))

    def forward(self):
        return self.mlp(self.embedding(self.ids))


def prepend_prompt(prompt, token_embeds):
    batch = token_embeds.shape[0]
    return torch.cat([prompt.unsqueeze(0).expand(batch, -1, -1), token_embeds], dim=1)
