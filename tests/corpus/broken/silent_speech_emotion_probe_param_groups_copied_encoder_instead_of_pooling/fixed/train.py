"""Probing a frozen pretrained speech encoder for emotion (neutral / happy / angry / sad):
the encoder runs under no_grad and only the attentive pooling and the classifier are
trained, the pooling with a smaller learning rate (recipe copied from the pretraining run,
which fine-tuned the encoder with its own group)."""
import torch
import torch.nn.functional as F

from model import EmotionModel, load_pretrained_encoder

torch.manual_seed(0)
N_MELS, FRAMES, N_EMOTIONS = 20, 40, 4


def utterances(n, gen):
    """Synthetic mel spectrograms: emotion changes pitch band, energy and tempo."""
    y = torch.randint(0, N_EMOTIONS, (n,), generator=gen)
    band = torch.tensor([6.0, 11.0, 13.0, 4.0])[y]
    energy = torch.tensor([1.0, 1.4, 2.0, 0.6])[y]
    rate = torch.tensor([0.3, 0.5, 0.6, 0.15])[y]
    mel_bins = torch.arange(N_MELS, dtype=torch.float32)[None, :, None]
    t = torch.arange(FRAMES, dtype=torch.float32)[None, None, :]
    envelope = 0.5 + 0.5 * torch.sin(rate[:, None, None] * t)
    mel = energy[:, None, None] * envelope * torch.exp(-(mel_bins - band[:, None, None]) ** 2 / 8)
    return mel + 0.1 * torch.randn(n, N_MELS, FRAMES, generator=gen), y


def main():
    gen = torch.Generator().manual_seed(0)
    train_x, train_y = utterances(96, gen)
    val_x, val_y = utterances(48, gen)
    model = EmotionModel(N_EMOTIONS)
    load_pretrained_encoder(model.encoder)
    optimizer = torch.optim.AdamW([
        {"params": model.pool.parameters(), "lr": 1e-3},
        {"params": model.classifier.parameters(), "lr": 3e-3},
    ], weight_decay=1e-4)
    for epoch in range(2):
        for i in range(0, len(train_x), 32):
            mel, y = train_x[i:i + 32], train_y[i:i + 32]
            with torch.no_grad():
                frames = model.encoder(mel)
            loss = F.cross_entropy(model.classify(frames), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            acc = (model(val_x).argmax(1) == val_y).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.4f} val acc {acc:.3f}")


if __name__ == "__main__":
    main()
