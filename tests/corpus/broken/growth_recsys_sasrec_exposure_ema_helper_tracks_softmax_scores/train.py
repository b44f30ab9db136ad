"""SASRec-style next-item recommender (one causal self-attention block over the last items of
each session). Besides the loss, training tracks how the predicted exposure is spread over the
catalogue, a popularity-bias monitor, as a moving average of the softmax scores."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from metrics import EMA, coverage_entropy

N_ITEMS, SEQ_LEN, DIM = 40, 8, 16


class SASRec(nn.Module):
    def __init__(self):
        super().__init__()
        self.item_emb = nn.Embedding(N_ITEMS + 1, DIM, padding_idx=0)
        with torch.no_grad():
            self.item_emb.weight[1:].normal_(std=0.1)
        self.pos_emb = nn.Embedding(SEQ_LEN, DIM)
        self.block = nn.TransformerEncoderLayer(DIM, nhead=2, dim_feedforward=32, dropout=0.0,
                                                batch_first=True)
        self.norm = nn.LayerNorm(DIM)
        mask = torch.triu(torch.full((SEQ_LEN, SEQ_LEN), float("-inf")), diagonal=1)
        self.register_buffer("causal_mask", mask)

    def forward(self, seq):
        pos = torch.arange(seq.size(1))
        h = self.item_emb(seq) + self.pos_emb(pos)
        h = self.norm(self.block(h, src_mask=self.causal_mask))
        return h @ self.item_emb.weight[1:].t()  # scores for items 1..N_ITEMS


def sessions(n, gen):
    """Sessions walk through item 'neighbourhoods' so that the next item is predictable."""
    start = torch.randint(1, N_ITEMS + 1, (n, 1), generator=gen)
    steps = torch.randint(1, 3, (n, SEQ_LEN), generator=gen).cumsum(1)
    return (start + steps - 1) % N_ITEMS + 1


def main(epochs=2, batches_per_epoch=3):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(2)
    model = SASRec()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    exposure_ema = EMA(decay=0.8)
    for epoch in range(epochs):
        for b in range(batches_per_epoch):
            seq = sessions(16, gen)
            inputs, targets = seq[:, :-1], seq[:, 1:]
            inputs = F.pad(inputs, (1, 0))  # left-pad to SEQ_LEN
            targets = F.pad(targets, (1, 0))
            scores = model(inputs)
            loss = F.cross_entropy(scores[:, 1:].reshape(-1, N_ITEMS),
                                   targets[:, 1:].reshape(-1) - 1)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            exposure = exposure_ema.update(scores[:, -1].softmax(-1).mean(0))
            print(f"epoch {epoch} batch {b} loss {loss.item():.4f} "
                  f"coverage {coverage_entropy(exposure):.4f}")


if __name__ == "__main__":
    main()
