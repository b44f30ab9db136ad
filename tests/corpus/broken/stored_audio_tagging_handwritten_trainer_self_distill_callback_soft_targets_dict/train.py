# Weakly-labelled audio tagging (10 sound classes, multi-label) with a small
# CNN over log-mel clips, trained through a home-made Lightning-like Trainer.
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import LossPrinter, SelfDistillation
from trainer import Trainer

N_MELS, FRAMES, N_TAGS = 20, 24, 10


class TaggerModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
        )
        self.head = nn.Linear(16, N_TAGS)

    def forward(self, mel):
        h = self.features(mel.unsqueeze(1))
        return self.head(h.amax(dim=(2, 3)))

    def training_step(self, batch, batch_idx):
        mel, tags = batch
        logits = self(mel)
        return {"loss": F.binary_cross_entropy_with_logits(logits, tags), "logits": logits}

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=2e-3)


def make_loader(n_batches=3, batch=8, seed=6):
    g = torch.Generator().manual_seed(seed)
    return [
        (torch.randn(batch, N_MELS, FRAMES, generator=g),
         (torch.rand(batch, N_TAGS, generator=g) > 0.7).float())
        for _ in range(n_batches)
    ]


if __name__ == "__main__":
    torch.manual_seed(0)
    module = TaggerModule()
    trainer = Trainer(max_epochs=3, callbacks=[SelfDistillation(), LossPrinter()])
    trainer.fit(module, make_loader())
    print("checksum", round(sum(p.sum().item() for p in module.parameters()), 4))
