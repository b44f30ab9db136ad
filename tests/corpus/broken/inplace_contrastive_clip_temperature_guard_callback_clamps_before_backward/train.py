"""Contrastive image-text pretraining (CLIP-style) on synthetic caption/image pairs: a small
conv image encoder and a bag-of-tokens text encoder are projected into one space and trained
with the symmetric InfoNCE loss and a learned temperature. Callbacks (callbacks.py) run at
fixed points of every step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import LossLogger, TemperatureGuard

N_CONCEPTS, VOCAB, SEQ, EMB = 12, 48, 5, 16


class TinyCLIP(nn.Module):
    def __init__(self):
        super().__init__()
        self.image_encoder = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.GELU(), nn.AdaptiveAvgPool2d(2), nn.Flatten(),
            nn.Linear(32, EMB))
        self.token_embedding = nn.Embedding(VOCAB, EMB)
        self.text_proj = nn.Linear(EMB, EMB)
        self.temperature = nn.Parameter(torch.tensor(0.07))

    def encode_image(self, images):
        return F.normalize(self.image_encoder(images), dim=-1)

    def encode_text(self, tokens):
        return F.normalize(self.text_proj(self.token_embedding(tokens).mean(1)), dim=-1)

    def forward(self, images, tokens):
        image_emb, text_emb = self.encode_image(images), self.encode_text(tokens)
        return image_emb @ text_emb.t() / self.temperature


class Trainer:
    def __init__(self, model, callbacks, lr=3e-3):
        self.model = model
        self.callbacks = callbacks
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
        self.steps_per_epoch = 0

    def _emit(self, event, **kwargs):
        for callback in self.callbacks:
            getattr(callback, event)(self, **kwargs)

    def training_step(self, images, tokens):
        logits = self.model(images, tokens)
        labels = torch.arange(len(images))
        loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2
        self._emit("on_before_backward", loss=loss)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self._emit("on_step_end", loss=loss)

    def fit(self, batches, epochs):
        self.steps_per_epoch = len(batches)
        for epoch in range(epochs):
            for images, tokens in batches:
                self.training_step(images, tokens)
            self._emit("on_epoch_end", epoch=epoch)


def paired_batches(n_batches, batch_size, gen):
    prototypes = torch.randn(N_CONCEPTS, 3, 8, 8, generator=gen)
    words = torch.randint(0, VOCAB, (N_CONCEPTS, 3), generator=gen)
    batches = []
    for _ in range(n_batches):
        concept = torch.randperm(N_CONCEPTS, generator=gen)[:batch_size]
        images = prototypes[concept] + 0.3 * torch.randn(batch_size, 3, 8, 8, generator=gen)
        filler = torch.randint(0, VOCAB, (batch_size, SEQ - 3), generator=gen)
        tokens = torch.cat([words[concept], filler], dim=1)
        batches.append((images, tokens))
    return batches


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = TinyCLIP()
    trainer = Trainer(model, [TemperatureGuard(), LossLogger()])
    trainer.fit(paired_batches(3, 8, gen), epochs=2)
    print(f"temperature {model.temperature.item():.4f}")
