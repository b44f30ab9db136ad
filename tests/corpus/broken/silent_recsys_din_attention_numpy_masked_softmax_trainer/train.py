"""Deep Interest Network (DIN) style CTR model on synthetic click logs.

A user's behaviour sequence (last 8 clicked items, zero-padded) is pooled with attention
weights that depend on the candidate item. Padding positions are masked out of the
softmax; the masked softmax is done in NumPy because the padding mask comes from the
NumPy-side feature pipeline.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ITEMS, DIM, SEQ, BATCH = 80, 16, 8, 32
PAD = 0


class ActivationUnit(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(4 * DIM, 32), nn.PReLU(), nn.Linear(32, 1))

    def forward(self, behaviours, candidate):
        cand = candidate.unsqueeze(1).expand_as(behaviours)
        feats = torch.cat([behaviours, cand, behaviours - cand, behaviours * cand], dim=-1)
        return self.mlp(feats).squeeze(-1)


class DIN(nn.Module):
    def __init__(self):
        super().__init__()
        self.item_emb = nn.Embedding(N_ITEMS, DIM, padding_idx=PAD)
        self.attention = ActivationUnit()
        self.ctr_head = nn.Sequential(nn.Linear(2 * DIM, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, history, candidate, mask_np):
        beh = self.item_emb(history)
        cand = self.item_emb(candidate)
        scores = self.attention(beh, cand).detach().numpy()
        scores = np.where(mask_np, scores, -1e9)
        scores = np.exp(scores - scores.max(axis=1, keepdims=True))
        weights = torch.from_numpy(scores / scores.sum(axis=1, keepdims=True)).float()
        interest = (weights.unsqueeze(-1) * beh).sum(dim=1)
        return self.ctr_head(torch.cat([interest, cand], dim=-1)).squeeze(-1)


class CTRTrainer:
    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)
        self.model = DIN()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=3e-3)
        self.category = self.rng.integers(0, 5, size=N_ITEMS)

    def batch(self):
        lengths = self.rng.integers(2, SEQ + 1, size=BATCH)
        history = np.zeros((BATCH, SEQ), dtype=np.int64)
        for b, n in enumerate(lengths):
            history[b, :n] = self.rng.integers(1, N_ITEMS, size=n)
        mask = history != PAD
        candidate = self.rng.integers(1, N_ITEMS, size=BATCH)
        hits = (self.category[history] == self.category[candidate][:, None]) & mask
        clicked = (hits.sum(1) / lengths > 0.3).astype(np.float32)
        return (torch.from_numpy(history), torch.from_numpy(candidate), mask,
                torch.from_numpy(clicked))

    def fit(self, steps=8):
        for step in range(steps):
            history, candidate, mask, clicked = self.batch()
            logits = self.model(history, candidate, mask)
            loss = F.binary_cross_entropy_with_logits(logits, clicked)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            acc = ((logits > 0).float() == clicked).float().mean().item()
            print(f"step {step} logloss {loss.item():.4f} acc {acc:.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    CTRTrainer().fit()
