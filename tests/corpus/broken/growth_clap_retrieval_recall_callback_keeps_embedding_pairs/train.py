"""CLAP-style contrastive audio-text pretraining on synthetic clips: each caption is a bag
of word ids that names the tones present in the clip, the audio encoder sees a small
mel-like spectrogram. Trainer with callbacks, epochs around batches."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import PrintLoss, RetrievalRecallCallback

N_MELS, FRAMES, VOCAB, DIM = 8, 16, 12, 16


class AudioEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(N_MELS, 16, 3, padding=1), nn.GELU(),
                                  nn.Conv1d(16, 16, 3, padding=1), nn.GELU())
        self.proj = nn.Linear(16, DIM)

    def forward(self, mel):
        return self.proj(self.conv(mel).mean(dim=-1))


class TextEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.bag = nn.EmbeddingBag(VOCAB, 16, mode="mean")
        self.proj = nn.Sequential(nn.Linear(16, 16), nn.GELU(), nn.Linear(16, DIM))

    def forward(self, words):
        return self.proj(self.bag(words))


class CLAP(nn.Module):
    def __init__(self):
        super().__init__()
        self.audio = AudioEncoder()
        self.text = TextEncoder()
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    def forward(self, mel, words):
        a = F.normalize(self.audio(mel), dim=-1)
        t = F.normalize(self.text(words), dim=-1)
        return a, t


def make_batch(n, gen):
    words = torch.randint(0, VOCAB, (n, 3), generator=gen)
    mel = 0.1 * torch.randn(n, N_MELS, FRAMES, generator=gen)
    for i in range(n):
        for w in words[i].tolist():
            mel[i, w % N_MELS] += 1.0
    return mel, words


class Trainer:
    def __init__(self, model, callbacks):
        self.model, self.callbacks = model, callbacks
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.01)
        self.global_step = 0

    def emit(self, name, *args):
        for cb in self.callbacks:
            hook = getattr(cb, name, None)
            if hook:
                hook(self, *args)

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            for mel, words in batches:
                a, t = self.model(mel, words)
                logits = self.model.logit_scale.exp() * a @ t.t()
                labels = torch.arange(len(a))
                loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self.global_step += 1
                self.emit("on_train_batch_end", {"loss": loss, "audio_emb": a, "text_emb": t})
            self.emit("on_train_epoch_end", epoch)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(5)
    batches = [make_batch(8, gen) for _ in range(4)]
    trainer = Trainer(CLAP(), [PrintLoss(), RetrievalRecallCallback()])
    trainer.fit(batches, epochs=2)


if __name__ == "__main__":
    main()
