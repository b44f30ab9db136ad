"""Streaming two-speaker separation trained with truncated BPTT: the GRU state lives on the
module between forward() calls (as it will when the model runs online); the loss of TBPTT
consecutive chunks is summed and backwarded once, and only then is the state detached, so
gradients flow across chunk boundaries inside a window but never into an older window."""
import itertools
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N_FILTERS, KERNEL, STRIDE, HIDDEN, N_SPK = 16, 8, 4, 32, 2
CHUNK, N_CHUNKS, TBPTT, BATCH = 64, 4, 2, 4


class StreamingSeparator(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Conv1d(1, N_FILTERS, KERNEL, stride=STRIDE, bias=False)
        self.rnn = nn.GRU(N_FILTERS, HIDDEN, batch_first=True)
        self.mask_head = nn.Linear(HIDDEN, N_SPK * N_FILTERS)
        self.decoder = nn.ConvTranspose1d(N_FILTERS, 1, KERNEL, stride=STRIDE, bias=False)
        self.state = None

    def reset_state(self):
        self.state = None

    def detach_state(self):
        if self.state is not None:
            self.state = self.state.detach()

    def forward(self, mixture):
        w = F.relu(self.encoder(mixture.unsqueeze(1)))
        out, self.state = self.rnn(w.transpose(1, 2), self.state)
        masks = torch.sigmoid(self.mask_head(out))
        masks = masks.view(out.size(0), out.size(1), N_SPK, N_FILTERS).permute(0, 2, 3, 1)
        sources = [self.decoder(w * masks[:, s]).squeeze(1) for s in range(N_SPK)]
        return torch.stack(sources, 1)[..., :mixture.size(-1)]


def si_snr(est, ref, eps=1e-8):
    est = est - est.mean(-1, keepdim=True)
    ref = ref - ref.mean(-1, keepdim=True)
    target = (est * ref).sum(-1, keepdim=True) / (ref.pow(2).sum(-1, keepdim=True) + eps) * ref
    return 10 * torch.log10(target.pow(2).sum(-1) / ((est - target).pow(2).sum(-1) + eps) + eps)


def pit_loss(est, refs):
    scores = [torch.stack([si_snr(est[:, i], refs[:, p]) for i, p in enumerate(perm)]).mean(0)
              for perm in itertools.permutations(range(N_SPK))]
    return -torch.stack(scores, 1).max(1).values.mean()


def synth_mixture(batch, n_samples):
    t = torch.arange(n_samples).float()
    f = torch.rand(batch, N_SPK, 1) * 0.08 + 0.02
    phase = torch.rand(batch, N_SPK, 1) * 2 * math.pi
    refs = torch.sin(2 * math.pi * f * t + phase) * (0.5 + torch.rand(batch, N_SPK, 1))
    return refs.sum(1), refs


def main():
    torch.manual_seed(0)
    model = StreamingSeparator()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for utt in range(2):
        mixture, refs = synth_mixture(BATCH, CHUNK * N_CHUNKS)
        model.reset_state()
        window_loss = 0.0
        for c in range(N_CHUNKS):
            span = slice(c * CHUNK, (c + 1) * CHUNK)
            window_loss = window_loss + pit_loss(model(mixture[:, span]), refs[:, :, span])
            if (c + 1) % TBPTT == 0:
                optimizer.zero_grad()
                (window_loss / TBPTT).backward()
                optimizer.step()
                model.detach_state()
                snr = -window_loss.item() / TBPTT
                print(f"utt {utt} chunks {c + 1 - TBPTT}-{c}: SI-SNR {snr:.3f} dB")
                window_loss = 0.0

    model.reset_state()
    with torch.no_grad():
        mixture, refs = synth_mixture(BATCH, CHUNK * N_CHUNKS)
        est = torch.cat([model(mixture[:, c * CHUNK:(c + 1) * CHUNK]) for c in range(N_CHUNKS)], -1)
        print(f"streamed eval SI-SNR {-pit_loss(est, refs).item():.3f} dB")
    print(f"checksum {sum(p.sum() for p in model.parameters()).item():.6f}")


if __name__ == "__main__":
    main()
