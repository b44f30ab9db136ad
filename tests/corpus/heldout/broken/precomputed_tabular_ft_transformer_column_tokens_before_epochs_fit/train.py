"""FT-Transformer-style regressor for a small housing table.

Every numeric column becomes a token: value * W_j + b_j plus a learned column embedding that
tells the attention layer which column the token came from. The column part does not depend
on the batch, so fit() computes it once before the epochs.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ROWS, N_COLS, D_TOKEN, BATCH, EPOCHS = 96, 6, 16, 32, 2


class ColumnTokenizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(N_COLS, D_TOKEN) * 0.1)
        self.bias = nn.Parameter(torch.zeros(N_COLS, D_TOKEN))
        self.column_embedding = nn.Embedding(N_COLS, D_TOKEN)
        self.column_norm = nn.LayerNorm(D_TOKEN)

    def column_tokens(self):
        ids = torch.arange(N_COLS)
        return self.column_norm(self.column_embedding(ids))

    def value_tokens(self, x):
        return x.unsqueeze(-1) * self.weight + self.bias          # (B, C, D)


class FTRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.tokenizer = ColumnTokenizer()
        self.attn = nn.MultiheadAttention(D_TOKEN, num_heads=2, batch_first=True)
        self.ffn = nn.Sequential(nn.Linear(D_TOKEN, 32), nn.GELU(), nn.Linear(32, D_TOKEN))
        self.head = nn.Linear(D_TOKEN, 1)

    def forward(self, x, col_tokens):
        tokens = self.tokenizer.value_tokens(x) + col_tokens
        mixed, _ = self.attn(tokens, tokens, tokens, need_weights=False)
        tokens = tokens + mixed
        tokens = tokens + self.ffn(tokens)
        return self.head(tokens.mean(dim=1)).squeeze(-1)


def make_table(generator):
    x = torch.randn(N_ROWS, N_COLS, generator=generator)
    price = 2.0 * x[:, 0] - x[:, 1] * x[:, 2] + 0.5 * x[:, 3].abs()
    return x, price + 0.1 * torch.randn(N_ROWS, generator=generator)


def fit(model, x, y, epochs=EPOCHS):
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    col_tokens = model.tokenizer.column_tokens()
    for epoch in range(epochs):
        perm = torch.randperm(N_ROWS)
        total = 0.0
        for start in range(0, N_ROWS, BATCH):
            idx = perm[start:start + BATCH]
            pred = model(x[idx], col_tokens)
            loss = F.mse_loss(pred, y[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * idx.numel()
        print(f"epoch {epoch} train mse {total / N_ROWS:.4f}")
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    x, y = make_table(torch.Generator().manual_seed(3))
    model = fit(FTRegressor(), x, y)
    with torch.no_grad():
        print(f"param checksum {sum(p.sum() for p in model.parameters()).item():.4f}")
