"""Feature-extraction fine-tuning: load a pretrained tiny encoder into the classification
model, freeze the base model and train only the classification head."""
import torch
import torch.nn.functional as F

from modeling import TinyConfig, TinyEncoder, TinyEncoderForSequenceClassification

CLS, SEQ = 1, 12


def sentiment_batch(cfg, n=16):
    """Label 1 when 'positive' tokens (ids 2-9) outnumber 'negative' ones (ids 10-17)."""
    ids = torch.randint(2, 18, (n, SEQ))
    ids[:, 0] = CLS
    positive = (ids[:, 1:] < 10).sum(1)
    labels = (2 * positive > SEQ - 1).long()
    return ids, labels


torch.manual_seed(0)
cfg = TinyConfig()
pretrained = TinyEncoder(cfg).state_dict()  # stands in for a hub checkpoint
model = TinyEncoderForSequenceClassification(cfg)
model.encoder.load_state_dict(pretrained)
model.base_model.requires_grad_(False)
optimizer = torch.optim.AdamW(model.classifier.parameters(), lr=3e-3)

for step in range(6):
    ids, labels = sentiment_batch(cfg)
    logits = model(ids)
    loss = F.cross_entropy(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")
print("checksum", round(sum(p.sum().item() for p in model.classifier.parameters()), 4))
