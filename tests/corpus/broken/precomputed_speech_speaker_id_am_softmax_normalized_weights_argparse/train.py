"""Speaker identification with an additive-margin softmax over cosine scores (x-vector style)."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS, FRAMES = 20, 40


class FrameEncoder(nn.Module):
    def __init__(self, emb_dim):
        super().__init__()
        self.tdnn = nn.Sequential(
            nn.Conv1d(N_MELS, 32, 5, padding=2), nn.ReLU(),
            nn.Conv1d(32, 32, 3, dilation=2, padding=2), nn.ReLU())
        self.embed = nn.Linear(64, emb_dim)

    def forward(self, mel):
        h = self.tdnn(mel)
        stats = torch.cat([h.mean(-1), h.std(-1)], dim=1)
        return self.embed(stats)


def utterances(n_batches, n_speakers, batch, gen):
    centroids = torch.randn(n_speakers, N_MELS, 1, generator=gen)
    for _ in range(n_batches):
        spk = torch.randint(0, n_speakers, (batch,), generator=gen)
        mel = centroids[spk] + 0.5 * torch.randn(batch, N_MELS, FRAMES, generator=gen)
        yield mel, spk


def train(args):
    torch.manual_seed(args.seed)
    encoder = FrameEncoder(args.emb_dim)
    class_w = nn.Parameter(0.1 * torch.randn(args.speakers, args.emb_dim))
    opt = torch.optim.SGD(list(encoder.parameters()) + [class_w], lr=args.lr, momentum=0.9)
    data = list(utterances(3, args.speakers, 8, torch.Generator().manual_seed(args.seed)))

    w_hat = F.normalize(class_w, dim=1)
    for epoch in range(args.epochs):
        for step, (mel, spk) in enumerate(data):
            emb = F.normalize(encoder(mel), dim=1)
            cos = emb @ w_hat.T
            logits = args.scale * (cos - args.margin * F.one_hot(spk, args.speakers))
            loss = F.cross_entropy(logits, spk)
            opt.zero_grad()
            loss.backward()
            opt.step()
            acc = (cos.argmax(1) == spk).float().mean().item()
            print(f"epoch {epoch} step {step} loss {loss.item():.4f} acc {acc:.2f}")


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--speakers", type=int, default=5)
    p.add_argument("--emb-dim", type=int, default=16)
    p.add_argument("--scale", type=float, default=10.0)
    p.add_argument("--margin", type=float, default=0.2)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


if __name__ == "__main__":
    train(parse_args())
