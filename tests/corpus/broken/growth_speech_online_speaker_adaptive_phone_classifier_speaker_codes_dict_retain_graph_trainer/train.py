"""Online speaker adaptation for a frame-level phone classifier: every speaker has a code
vector, a leaky average of a learned summary of their utterances, which is added to the
frame features. Utterances arrive as a stream alternating between two speakers.
retain_graph=True was added after the second utterance of a speaker raised "Trying to
backward through the graph a second time"."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS, HIDDEN, N_PHONES, FRAMES = 20, 32, 8, 25
SPEAKERS = ["spk_f01", "spk_m02"]


class AdaptivePhoneClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.frames = nn.Sequential(nn.Linear(N_MELS, HIDDEN), nn.ReLU())
        self.summary = nn.Linear(N_MELS, HIDDEN)
        self.keep_logit = nn.Parameter(torch.tensor(1.0))
        self.classifier = nn.Sequential(nn.Linear(HIDDEN, HIDDEN), nn.ReLU(),
                                        nn.Linear(HIDDEN, N_PHONES))

    def adapt(self, code, fbank):
        keep = torch.sigmoid(self.keep_logit)
        return keep * code + (1 - keep) * torch.tanh(self.summary(fbank.mean(dim=0)))

    def forward(self, fbank, code):
        return self.classifier(self.frames(fbank) + code)


def utterance_stream(gen, n):
    offsets = {s: 0.8 * torch.randn(N_MELS, generator=gen) for s in SPEAKERS}
    phone_means = torch.randn(N_PHONES, N_MELS, generator=gen)
    for i in range(n):
        speaker = SPEAKERS[i % len(SPEAKERS)]
        phones = torch.randint(0, N_PHONES, (FRAMES,), generator=gen)
        fbank = phone_means[phones] + offsets[speaker] \
            + 0.3 * torch.randn(FRAMES, N_MELS, generator=gen)
        yield speaker, fbank, phones


class OnlineAdaptationTrainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
        self.codes = {s: torch.zeros(HIDDEN) for s in SPEAKERS}

    def step(self, speaker, fbank, phones):
        self.codes[speaker] = self.model.adapt(self.codes[speaker], fbank)
        logits = self.model(fbank, self.codes[speaker])
        loss = F.cross_entropy(logits, phones)
        self.optimizer.zero_grad()
        loss.backward(retain_graph=True)
        self.optimizer.step()
        return loss.item()


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(6)
    trainer = OnlineAdaptationTrainer(AdaptivePhoneClassifier())
    for i, (speaker, fbank, phones) in enumerate(utterance_stream(gen, 8)):
        loss = trainer.step(speaker, fbank, phones)
        print(f"utt {i} {speaker} phone loss {loss:.4f}")


if __name__ == "__main__":
    main()
