"""Extractive summariser: score every sentence of a document and keep the top k.

Sentence and abstract embeddings come from a frozen sentence encoder and are cached
once per corpus (random stand-ins here); only the scorer is trained, on how close the
picked sentences come to the human abstract.
"""
import torch
import torch.nn as nn

from selection import coverage_loss, summary_embedding

torch.manual_seed(3)
N_DOCS, N_SENT, EMB, K = 48, 10, 16, 3


class SentenceScorer(nn.Module):
    """Scores each sentence from its embedding, its position and the document centroid."""

    def __init__(self):
        super().__init__()
        self.position = nn.Embedding(N_SENT, 4)
        self.mlp = nn.Sequential(nn.Linear(2 * EMB + 4, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, sent_emb):
        centroid = sent_emb.mean(dim=1, keepdim=True).expand_as(sent_emb)
        pos = self.position.weight[None].expand(sent_emb.shape[0], -1, -1)
        return self.mlp(torch.cat([sent_emb, centroid, pos], dim=-1)).squeeze(-1)


class SummariserTrainer:
    def __init__(self, k=K, lr=5e-3):
        self.k = k
        self.model = SentenceScorer()
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=lr)
        self.history = []

    def training_step(self, sent_emb, abstract):
        scores = self.model(sent_emb)
        summary = summary_embedding(sent_emb, scores, self.k)
        loss = coverage_loss(summary, abstract)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, sent_emb, abstract, epochs=3, batch=16):
        for epoch in range(epochs):
            losses = [self.training_step(sent_emb[s:s + batch], abstract[s:s + batch])
                      for s in range(0, len(sent_emb), batch)]
            self.history.append(sum(losses) / len(losses))
            print(f"epoch {epoch} coverage loss {self.history[-1]:.4f}")


def cached_corpus():
    sent_emb = torch.randn(N_DOCS, N_SENT, EMB)
    salient = torch.zeros(N_DOCS, N_SENT)
    salient[:, :K] = 1.0  # lead sentences carry the story
    abstract = (sent_emb * salient[..., None]).sum(1) / K + 0.1 * torch.randn(N_DOCS, EMB)
    return sent_emb, abstract


if __name__ == "__main__":
    trainer = SummariserTrainer()
    trainer.fit(*cached_corpus())
    print("checksum", sum(p.sum().item() for p in trainer.model.parameters()))
