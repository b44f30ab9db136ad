"""Keyword spotting and speaker identification from one shared log-mel encoder.

The encoder has its own optimizer (lower learning rate), the two heads share another.
Both task losses are backwarded through the same encoder output (the first with
retain_graph=True) before either optimizer steps, so no step lands between the two
backward passes. Running totals on the trainer are plain floats.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(29)
MELS, FRAMES, KEYWORDS, SPEAKERS = 12, 20, 4, 3


class SharedEncoder(nn.Module):
    def __init__(self, dim=24):
        super().__init__()
        self.conv = nn.Conv1d(MELS, dim, 3, padding=1)
        self.proj = nn.Linear(dim, dim)

    def forward(self, mel):
        h = F.relu(self.conv(mel)).mean(dim=-1)
        return torch.tanh(self.proj(h))


class TwoTaskTrainer:
    def __init__(self):
        self.encoder = SharedEncoder()
        self.kws_head = nn.Linear(24, KEYWORDS)
        self.spk_head = nn.Linear(24, SPEAKERS)
        self.enc_opt = torch.optim.Adam(self.encoder.parameters(), lr=1e-3)
        heads = list(self.kws_head.parameters()) + list(self.spk_head.parameters())
        self.head_opt = torch.optim.Adam(heads, lr=5e-3)
        self.totals = {"kws": 0.0, "spk": 0.0}
        self.steps = 0

    def step(self, mel, keyword, speaker):
        emb = self.encoder(mel)
        kws_loss = F.cross_entropy(self.kws_head(emb), keyword)
        spk_loss = 0.5 * F.cross_entropy(self.spk_head(emb), speaker)
        self.enc_opt.zero_grad()
        self.head_opt.zero_grad()
        kws_loss.backward(retain_graph=True)
        spk_loss.backward()
        self.enc_opt.step()
        self.head_opt.step()
        self.totals["kws"] += kws_loss.item()
        self.totals["spk"] += spk_loss.item()
        self.steps += 1

    @torch.no_grad()
    def accuracy(self, mel, keyword):
        return (self.kws_head(self.encoder(mel)).argmax(dim=-1) == keyword).float().mean().item()

    def end_epoch(self, epoch, mel, keyword):
        means = {k: v / self.steps for k, v in self.totals.items()}
        print(f"epoch {epoch} kws {means['kws']:.4f} spk {means['spk']:.4f} "
              f"acc {self.accuracy(mel, keyword):.3f}")
        self.totals = {"kws": 0.0, "spk": 0.0}
        self.steps = 0


def make_clips(n=48):
    keyword = torch.randint(0, KEYWORDS, (n,))
    speaker = torch.randint(0, SPEAKERS, (n,))
    band = torch.arange(MELS).float()[None, :, None]
    mel = torch.exp(-(band - 3.0 * keyword[:, None, None]) ** 2 / 4.0)
    mel = mel * (1.0 + 0.3 * speaker[:, None, None]) + 0.1 * torch.randn(n, MELS, FRAMES)
    return mel, keyword, speaker


if __name__ == "__main__":
    trainer = TwoTaskTrainer()
    mel, keyword, speaker = make_clips()
    for epoch in range(3):
        for s in range(0, len(mel), 16):
            trainer.step(mel[s:s + 16], keyword[s:s + 16], speaker[s:s + 16])
        trainer.end_epoch(epoch, mel, keyword)
    modules = (trainer.encoder, trainer.kws_head, trainer.spk_head)
    print("checksum", round(sum(p.sum().item() for m in modules for p in m.parameters()), 6))
