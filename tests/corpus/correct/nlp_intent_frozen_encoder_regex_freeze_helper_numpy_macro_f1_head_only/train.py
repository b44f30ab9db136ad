"""Intent classification for a support chatbot: a GRU sentence encoder pretrained on the
company's chat logs is kept frozen (parameters matched by regex from --freeze) and only a
small head is trained; macro-F1 is computed in NumPy for the log."""
import argparse
import re

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, EMB, HID, N_INTENTS, SEQ = 120, 16, 24, 4, 10


class IntentModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, EMB, padding_idx=0)
        self.encoder = nn.GRU(EMB, HID, batch_first=True, bidirectional=True)
        self.head = nn.Sequential(nn.LayerNorm(2 * HID), nn.Dropout(0.1),
                                  nn.Linear(2 * HID, N_INTENTS))

    def forward(self, ids, lengths):
        packed = nn.utils.rnn.pack_padded_sequence(self.embedding(ids), lengths,
                                                   batch_first=True, enforce_sorted=False)
        _, h = self.encoder(packed)
        return self.head(torch.cat([h[0], h[1]], dim=1))


def freeze_matching(model, spec):
    parts = [p.strip() for p in spec.split(",") if p.strip()]
    if not parts:
        return []
    pattern = re.compile(r"^(?:%s)\." % "|".join(parts))
    frozen = []
    for name, param in model.named_parameters():
        if pattern.match(name):
            param.requires_grad_(False)
            frozen.append(name)
    return frozen


def macro_f1(y_true, y_pred, n_classes):
    scores = []
    for c in range(n_classes):
        tp = np.sum((y_pred == c) & (y_true == c))
        fp = np.sum((y_pred == c) & (y_true != c))
        fn = np.sum((y_pred != c) & (y_true == c))
        scores.append(2 * tp / max(2 * tp + fp + fn, 1))
    return float(np.mean(scores))


def utterances(n, gen):
    lengths = torch.randint(3, SEQ + 1, (n,), generator=gen)
    ids = torch.randint(1, VOCAB, (n, SEQ), generator=gen)
    ids = ids.masked_fill(torch.arange(SEQ) >= lengths[:, None], 0)
    intents = ids[:, 0] % N_INTENTS
    return ids, lengths, intents


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--freeze", default="embedding,encoder,")
    args = parser.parse_args()

    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(6)
    model = IntentModel()
    pretrained = {k: v.clone() for k, v in IntentModel().state_dict().items()
                  if not k.startswith("head.")}
    model.load_state_dict(pretrained, strict=False)
    frozen = freeze_matching(model, args.freeze)
    print(f"frozen tensors: {len(frozen)}")

    optimizer = torch.optim.AdamW((p for p in model.parameters() if p.requires_grad), lr=5e-3)
    ids, lengths, intents = utterances(96, gen)
    for epoch in range(4):
        model.train()
        model.embedding.eval()
        model.encoder.eval()
        for start in range(0, 96, 32):
            sl = slice(start, start + 32)
            logits = model(ids[sl], lengths[sl])
            loss = F.cross_entropy(logits, intents[sl], label_smoothing=0.05)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            pred = model(ids, lengths).argmax(1).numpy()
        f1 = macro_f1(intents.numpy(), pred, N_INTENTS)
        print(f"epoch {epoch} loss {loss.item():.4f} macro-f1 {f1:.4f}")
    print(f"checksum {sum(p.double().sum().item() for p in model.parameters()):.6f}")


if __name__ == "__main__":
    main()
