"""Speaker-verification training loop on synthetic utterances (4 speakers, 10 frames each)."""
import torch
import torch.nn.functional as F

from model import SpeakerEncoder

N_MELS, N_SPEAKERS, FRAMES, BATCH = 8, 4, 10, 12


def utterances(voices, n):
    spk = torch.randint(0, N_SPEAKERS, (n,))
    mels = voices[spk].unsqueeze(1) + 0.4 * torch.randn(n, FRAMES, N_MELS)
    return mels, spk


def main(steps=5):
    torch.manual_seed(0)
    voices = torch.randn(N_SPEAKERS, N_MELS)
    model = SpeakerEncoder(N_MELS, N_SPEAKERS)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for step in range(steps):
        mels, spk = utterances(voices, BATCH)
        emb = model(mels)
        loss = F.cross_entropy(model.similarity_logits(emb), spk)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        model.update_centroids(emb, spk)
        print(f"step {step}: loss {loss.item():.4f} w {model.w.item():.3f}")
    return model


if __name__ == "__main__":
    main()
