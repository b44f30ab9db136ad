"""Speech emotion recognition with an auxiliary speaker-ID task. The two tasks have their
own optimizers (different learning rates), each covering the shared encoder and its own
head, and they take turns updating the encoder on every batch."""
import torch
import torch.nn.functional as F

from model import N_EMOTIONS, N_MELS, N_SPEAKERS, EmotionSpeakerNet

torch.manual_seed(0)
FRAMES = 40


def synthetic_batch(n):
    emotion = torch.randint(0, N_EMOTIONS, (n,))
    speaker = torch.randint(0, N_SPEAKERS, (n,))
    t = torch.linspace(0, 1, FRAMES)
    pitch = (1 + speaker.float() / N_SPEAKERS).view(n, 1, 1)
    energy = (0.5 + emotion.float() / N_EMOTIONS).view(n, 1, 1)
    bands = torch.arange(N_MELS).float().view(1, N_MELS, 1)
    mels = energy * torch.sin(2 * torch.pi * pitch * bands * t / 4) + 0.1 * torch.randn(n, N_MELS, FRAMES)
    return mels, emotion, speaker


def main(epochs=2, batches_per_epoch=3):
    model = EmotionSpeakerNet()
    emotion_opt = torch.optim.Adam(
        list(model.encoder.parameters()) + list(model.emotion_head.parameters()), lr=1e-3)
    speaker_opt = torch.optim.SGD(
        list(model.encoder.parameters()) + list(model.speaker_head.parameters()), lr=0.02,
        momentum=0.9)
    for epoch in range(epochs):
        for _ in range(batches_per_epoch):
            mels, emotion, speaker = synthetic_batch(24)
            emb = model.encoder(mels)
            emotion_loss = F.cross_entropy(model.emotion_head(emb), emotion)
            speaker_loss = F.cross_entropy(model.speaker_head(emb), speaker)

            emotion_opt.zero_grad()
            emotion_loss.backward(retain_graph=True)
            emotion_opt.step()

            speaker_opt.zero_grad()
            speaker_loss.backward()
            speaker_opt.step()
        print(f"epoch {epoch} emotion {emotion_loss.item():.4f} speaker {speaker_loss.item():.4f}")


if __name__ == "__main__":
    main()
