"""Keyword spotting: train a GRU on whole clips, then stream audio frames through it.

After a few training steps the model is used as a streaming detector: frames arrive in
chunks and the GRU hidden state is carried on a Streamer object between chunks, all
under torch.no_grad(). Training then resumes on fresh clips; the carried stream state
never touches the training graph.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(15)
N_MELS, N_KEYWORDS, CLIP_FRAMES = 10, 3, 20


class KeywordSpotter(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.gru = nn.GRU(N_MELS, hidden, batch_first=True)
        self.classifier = nn.Linear(hidden, N_KEYWORDS + 1)  # last class = background

    def forward(self, frames, h=None):
        out, h = self.gru(frames, h)
        return self.classifier(out), h


class Streamer:
    def __init__(self, model):
        self.model = model
        self.state = None

    @torch.no_grad()
    def push(self, chunk):
        logits, self.state = self.model(chunk.unsqueeze(0), self.state)
        return logits[0, -1].softmax(-1)


def synth_clips(n):
    labels = torch.randint(0, N_KEYWORDS + 1, (n,))
    t = torch.arange(CLIP_FRAMES).float()
    pattern = torch.stack([torch.sin(t * (k + 1) / 3) for k in range(N_KEYWORDS + 1)])
    clips = pattern[labels].unsqueeze(-1) * torch.linspace(0.5, 1.5, N_MELS)
    return clips + 0.2 * torch.randn(n, CLIP_FRAMES, N_MELS), labels


def train_steps(model, opt, n_steps, tag):
    for step in range(n_steps):
        clips, labels = synth_clips(16)
        logits, _ = model(clips)
        loss = F.cross_entropy(logits[:, -1], labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"{tag} step {step} loss {loss.item():.6f}")


model = KeywordSpotter()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
train_steps(model, opt, 4, "train")

model.eval()
streamer = Streamer(model)
stream, _ = synth_clips(1)
for i, chunk in enumerate(stream[0].split(5)):
    probs = streamer.push(chunk)
    print(f"stream chunk {i} top {probs.argmax().item()} p {probs.max().item():.6f}")
model.train()

train_steps(model, opt, 2, "finetune")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
