"""Streaming two-speaker separation: a learned conv filterbank, a causal GRU whose state is
kept inside the module between calls (so the same model can later run online, chunk by
chunk), two sigmoid masks and a transposed-conv decoder. Trained chunk by chunk over long
synthetic mixtures with permutation-invariant SI-SNR."""
import itertools
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N_FILTERS, KERNEL, STRIDE, HIDDEN, N_SPK = 16, 8, 4, 32, 2
CHUNK, N_CHUNKS, BATCH = 64, 3, 4


class StreamingSeparator(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Conv1d(1, N_FILTERS, KERNEL, stride=STRIDE, bias=False)
        self.rnn = nn.GRU(N_FILTERS, HIDDEN, batch_first=True)
        self.mask_head = nn.Linear(HIDDEN, N_SPK * N_FILTERS)
        self.decoder = nn.ConvTranspose1d(N_FILTERS, 1, KERNEL, stride=STRIDE, bias=False)
        self._state = None

    def reset_state(self):
        self._state = None

    def forward(self, mixture):
        w = F.relu(self.encoder(mixture.unsqueeze(1)))               # (B, F, T)
        out, state = self.rnn(w.transpose(1, 2), self._state)
        self._state = state.detach()   # keep context for next chunk, not its graph
        masks = torch.sigmoid(self.mask_head(out))
        masks = masks.view(out.size(0), out.size(1), N_SPK, N_FILTERS).permute(0, 2, 3, 1)
        sources = [self.decoder(w * masks[:, s]).squeeze(1) for s in range(N_SPK)]
        return torch.stack(sources, 1)[..., :mixture.size(-1)]         # (B, S, samples)


def si_snr(est, ref, eps=1e-8):
    est = est - est.mean(-1, keepdim=True)
    ref = ref - ref.mean(-1, keepdim=True)
    scale = (est * ref).sum(-1, keepdim=True) / (ref.pow(2).sum(-1, keepdim=True) + eps)
    target = scale * ref
    noise = est - target
    return 10 * torch.log10(target.pow(2).sum(-1) / (noise.pow(2).sum(-1) + eps) + eps)


def pit_si_snr_loss(est, refs):
    scores = []
    for perm in itertools.permutations(range(N_SPK)):
        scores.append(torch.stack([si_snr(est[:, i], refs[:, p]) for i, p in enumerate(perm)]).mean(0))
    return -torch.stack(scores, 1).max(1).values.mean()


def synth_mixture(batch, n_samples):
    t = torch.arange(n_samples).float()
    f = torch.rand(batch, N_SPK, 1) * 0.08 + 0.02
    phase = torch.rand(batch, N_SPK, 1) * 2 * math.pi
    refs = torch.sin(2 * math.pi * f * t + phase) + 0.3 * torch.sin(6 * math.pi * f * t)
    refs = refs * (0.5 + torch.rand(batch, N_SPK, 1))
    return refs.sum(1), refs


def train(n_utterances=2):
    torch.manual_seed(0)
    model = StreamingSeparator()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for utt in range(n_utterances):
        mixture, refs = synth_mixture(BATCH, CHUNK * N_CHUNKS)
        model.reset_state()
        for c in range(N_CHUNKS):
            window = slice(c * CHUNK, (c + 1) * CHUNK)
            est = model(mixture[:, window])
            loss = pit_si_snr_loss(est, refs[:, :, window])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"utterance {utt} chunk {c}: SI-SNR {-loss.item():.3f} dB")


if __name__ == "__main__":
    train()
