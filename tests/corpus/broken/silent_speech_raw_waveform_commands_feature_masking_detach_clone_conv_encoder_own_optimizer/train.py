"""Fine-tune a small raw-waveform command recogniser on synthetic spoken commands.

Following the wav2vec 2.0 fine-tuning recipe, the convolutional feature encoder gets its
own optimizer with a smaller learning rate than the context network and the classifier.
"""
import math

import torch
import torch.nn.functional as F

from model import CommandRecognizer

COMMANDS = ["yes", "no", "up", "down", "stop"]
SAMPLE_RATE = 4000
CLIP = 800  # 0.2 s at the reduced rate


def synth_command(label, generator):
    """Each command is a chirp with its own pitch contour, plus noise and a random onset."""
    t = torch.arange(CLIP) / SAMPLE_RATE
    f0 = 180.0 + 60.0 * label
    sweep = (-1) ** label * 40.0 * label
    phase = 2 * math.pi * (f0 * t + 0.5 * sweep * t ** 2)
    onset = int(torch.randint(0, CLIP // 4, (1,), generator=generator))
    envelope = torch.zeros(CLIP)
    envelope[onset:onset + CLIP // 2] = torch.hann_window(CLIP // 2)
    noise = 0.05 * torch.randn(CLIP, generator=generator)
    return envelope * torch.sin(phase) + noise


def batches(n_batches, batch_size, generator):
    for _ in range(n_batches):
        labels = torch.randint(0, len(COMMANDS), (batch_size,), generator=generator)
        wavs = torch.stack([synth_command(int(y), generator) for y in labels])
        yield wavs, labels


class Trainer:
    def __init__(self, model, lr=3e-3, encoder_lr=5e-4):
        self.model = model
        head_params = [p for n, p in model.named_parameters() if not n.startswith("feature_encoder.")]
        self.optimizer = torch.optim.AdamW(head_params, lr=lr)
        self.encoder_optimizer = torch.optim.AdamW(model.feature_encoder.parameters(), lr=encoder_lr)
        self.generator = torch.Generator().manual_seed(1)

    def train_epoch(self, data):
        self.model.train()
        losses, correct, seen = [], 0, 0
        for wavs, labels in data:
            logits = self.model(wavs, generator=self.generator)
            loss = F.cross_entropy(logits, labels)
            self.optimizer.zero_grad()
            self.encoder_optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.encoder_optimizer.step()
            losses.append(loss.item())
            correct += (logits.argmax(dim=1) == labels).sum().item()
            seen += len(labels)
        return sum(losses) / len(losses), correct / seen


torch.manual_seed(0)
data_gen = torch.Generator().manual_seed(0)
trainer = Trainer(CommandRecognizer(len(COMMANDS)))
for epoch in range(3):
    loss, acc = trainer.train_epoch(batches(2, 16, data_gen))
    print(f"epoch {epoch} loss {loss:.4f} acc {acc:.3f}")
print(f"checksum {sum(p.sum().item() for p in trainer.model.parameters()):.6f}")
