"""Unsupervised SimCSE with an auxiliary masked-LM loss on toy "sentences" drawn from a
few topic-specific vocabularies: two dropout views of each sentence are positives (the
first view is also masked for the MLM term), the rest of the batch are negatives."""
import torch
import torch.nn.functional as F

from model import MASK, SentenceEncoder

VOCAB, SEQ, TOPICS = 40, 12, 4


def sentences(batch, gen):
    topic = torch.randint(0, TOPICS, (batch, 1), generator=gen)
    words = torch.randint(0, (VOCAB - 2) // TOPICS, (batch, SEQ), generator=gen)
    return 2 + topic * ((VOCAB - 2) // TOPICS) + words


def mask_tokens(ids, gen, p=0.15):
    chosen = torch.rand(ids.shape, generator=gen) < p
    labels = torch.where(chosen, ids, torch.full_like(ids, -100))
    return ids.masked_fill(chosen, MASK), labels


torch.manual_seed(0)
gen = torch.Generator().manual_seed(2)
encoder = SentenceEncoder(VOCAB)
optimizer = torch.optim.AdamW(encoder.parameters(), lr=3e-3, weight_decay=0.01)
temperature, mlm_weight = 0.05, 0.1

for step in range(6):
    ids = sentences(16, gen)
    masked, labels = mask_tokens(ids, gen)
    h1 = encoder(masked)
    mlm = F.cross_entropy(encoder.mlm_logits(h1).flatten(0, 1), labels.flatten(),
                          ignore_index=-100)
    h2 = encoder(ids)
    z1, z2 = encoder.pool(h1), encoder.pool(h2)
    sim = F.cosine_similarity(z1.unsqueeze(1), z2.unsqueeze(0), dim=-1) / temperature
    contrastive = F.cross_entropy(sim, torch.arange(ids.size(0)))
    loss = contrastive + mlm_weight * mlm
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} contrastive {contrastive.item():.4f} mlm {mlm.item():.4f}")
