"""Train a small keyword spotter on synthetic log-mel clips: each keyword is a band of
energy that sweeps across the mel axis at its own speed."""
import torch
import torch.nn.functional as F

from model import KeywordNet

torch.manual_seed(0)
N_MELS, FRAMES, KEYWORDS = 20, 32, 4


def synth_clips(n):
    labels = torch.randint(0, KEYWORDS, (n,))
    t = torch.arange(FRAMES).float()
    centre = (3 + (labels[:, None] + 1) * 0.4 * t) % N_MELS
    mel_axis = torch.arange(N_MELS).float()
    clips = torch.exp(-0.5 * (mel_axis[None, :, None] - centre[:, None, :]) ** 2)
    return clips + 0.1 * torch.randn(n, N_MELS, FRAMES), labels


def train(model, epochs=2, batch=16):
    clips, labels = synth_clips(64)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for epoch in range(epochs):
        for start in range(0, len(clips), batch):
            logits = model(clips[start:start + batch])
            loss = F.cross_entropy(logits, labels[start:start + batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    train(KeywordNet(N_MELS))
