"""Train the voice-conversion autoencoder on synthetic utterances from four speakers: each
speaker has its own spectral tilt and formant band, each utterance its own phone sequence.
The model rebuilds an utterance from its content code and a different utterance of the same
speaker, then converts one utterance to every speaker as a smoke test."""
import torch
import torch.nn.functional as F

from model import N_MELS, VoiceConverter

torch.manual_seed(0)
N_SPEAKERS, FRAMES = 4, 24

tilts = torch.linspace(-1.0, 1.0, N_SPEAKERS)
formants = torch.tensor([4, 8, 12, 16])


def utterance(speaker):
    bins = torch.arange(N_MELS, dtype=torch.float32)
    envelope = tilts[speaker] * (bins / N_MELS - 0.5) + torch.exp(-0.5 * (bins - formants[speaker]) ** 2)
    phones = torch.randint(0, N_MELS, (FRAMES // 4,)).repeat_interleave(4)
    frames = 0.8 * F.one_hot(phones, N_MELS).float().T
    return envelope[:, None] + frames + 0.05 * torch.randn(N_MELS, FRAMES)


def batch(size=16):
    speakers = torch.randint(0, N_SPEAKERS, (size,))
    source = torch.stack([utterance(s) for s in speakers.tolist()])
    reference = torch.stack([utterance(s) for s in speakers.tolist()])
    return source, reference, speakers


model = VoiceConverter()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)

for epoch in range(2):
    for step in range(3):
        source, reference, speakers = batch()
        recon = model(source, reference, speakers)
        loss = F.l1_loss(recon, source)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
    print(f"epoch {epoch} recon_l1 {loss.item():.4f} speakers_seen {len(model.speaker_table)}")

probe = utterance(0).unsqueeze(0)
for target in sorted(model.speaker_table):
    converted = model.convert(probe, target)
    print(f"convert 0 -> {target}: mean energy {converted.mean().item():.4f}")
