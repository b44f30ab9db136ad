"""Face-recognition fine-tuning on pre-extracted face crops' features (synthetic identities):
a small embedding network plus a CurricularFace head, trained with cross-entropy."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from heads import CurricularFace

FEAT_DIM, EMB_DIM, N_IDS, PER_ID = 32, 16, 6, 3


class Embedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(FEAT_DIM, 64), nn.BatchNorm1d(64), nn.PReLU(),
                                  nn.Linear(64, EMB_DIM), nn.BatchNorm1d(EMB_DIM))

    def forward(self, x):
        return self.body(x)


def identity_batch(centers, generator):
    labels = torch.arange(N_IDS).repeat_interleave(PER_ID)
    x = centers[labels] + 0.5 * torch.randn(len(labels), FEAT_DIM, generator=generator)
    return x, labels


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    centers = torch.randn(N_IDS, FEAT_DIM, generator=gen)
    embedder, head = Embedder(), CurricularFace(EMB_DIM, N_IDS)
    optimizer = torch.optim.SGD([{"params": embedder.parameters(), "weight_decay": 5e-4},
                                 {"params": head.parameters()}], lr=0.1, momentum=0.9)
    for step in range(6):
        x, labels = identity_batch(centers, gen)
        logits = head(embedder(x), labels)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (logits.argmax(1) == labels).float().mean().item()
        print(f"step {step} loss {loss.item():.4f} acc {acc:.2f} t {head.t.item():.4f}")


if __name__ == "__main__":
    main()
