"""Fraud screening on card transactions with a tabular autoencoder: numeric columns are
reconstructed with MSE and the merchant category with cross-entropy; transactions with a
high reconstruction error are flagged. Encoder and decoder have their own optimizers
(different learning rates and weight decay)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_NUMERIC, N_MERCHANTS, LATENT = 6, 5, 3


class TransactionAutoencoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.merchant_emb = nn.Embedding(N_MERCHANTS, 4)
        self.encoder = nn.Sequential(nn.Linear(N_NUMERIC + 4, 16), nn.ReLU(), nn.Linear(16, LATENT))
        self.decoder = nn.Sequential(nn.Linear(LATENT, 16), nn.ReLU(),
                                     nn.Linear(16, N_NUMERIC + N_MERCHANTS))

    def forward(self, numeric, merchant):
        z = self.encoder(torch.cat([numeric, self.merchant_emb(merchant)], dim=-1))
        out = self.decoder(z)
        return out[:, :N_NUMERIC], out[:, N_NUMERIC:]


def make_transactions(n):
    merchant = torch.randint(0, N_MERCHANTS, (n,))
    base = torch.randn(N_MERCHANTS, N_NUMERIC)[merchant]
    numeric = base + 0.3 * torch.randn(n, N_NUMERIC)
    return numeric, merchant


def train(model, optimizers, data, epochs=2, batch_size=16):
    numeric, merchant = data
    for epoch in range(epochs):
        for start in range(0, len(merchant), batch_size):
            num_b = numeric[start:start + batch_size]
            mer_b = merchant[start:start + batch_size]
            recon_num, merchant_logits = model(num_b, mer_b)
            loss = F.mse_loss(recon_num, num_b) + 0.5 * F.cross_entropy(merchant_logits, mer_b)
            for opt in optimizers:
                opt.zero_grad()
                loss.backward()
                opt.step()
        print(f"epoch {epoch} reconstruction loss {loss.item():.4f}")


def anomaly_scores(model, numeric, merchant):
    with torch.no_grad():
        recon_num, merchant_logits = model(numeric, merchant)
        return ((recon_num - numeric) ** 2).mean(-1) + F.cross_entropy(
            merchant_logits, merchant, reduction="none")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TransactionAutoencoder()
    enc_params = [*model.merchant_emb.parameters(), *model.encoder.parameters()]
    enc_opt = torch.optim.Adam(enc_params, lr=3e-3, weight_decay=1e-4)
    dec_opt = torch.optim.Adam(model.decoder.parameters(), lr=1e-2)
    data = make_transactions(48)
    train(model, [enc_opt, dec_opt], data)
    scores = anomaly_scores(model, *make_transactions(8))
    print("scores", [round(s, 3) for s in scores.tolist()])
