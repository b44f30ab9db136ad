"""Semi-supervised CTC training with a mean teacher: the student is trained with CTC (final +
intermediate head) on SpecAugment-masked features plus a KL term towards the teacher's
posteriors on the clean features; the teacher is an EMA of the student."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from asr_model import InterCTCModel

N_MELS, N_PHONES, FRAMES_PER_PHONE = 12, 5, 4


class EMAHelper:
    def __init__(self, model, decay=0.9):
        self.teacher = copy.deepcopy(model).requires_grad_(False).eval()
        self.decay = decay

    @torch.no_grad()
    def update(self, student):
        for t, s in zip(self.teacher.parameters(), student.parameters()):
            t.lerp_(s, 1 - self.decay)

    @torch.no_grad()
    def posteriors(self, feats, feat_lens):
        log_probs, _, _ = self.teacher(feats, feat_lens)
        return log_probs.exp()


def spec_augment(feats, gen, width=3):
    feats = feats.clone()
    for b in range(feats.size(0)):
        start = int(torch.randint(0, feats.size(2) - width, (1,), generator=gen))
        feats[b, :, start:start + width] = 0.0  # frequency mask, written into the copy
    return feats


def greedy_decode(log_probs, out_lens):
    best = log_probs.argmax(-1)
    hyps = []
    for b in range(best.size(0)):
        seq = torch.unique_consecutive(best[b, :out_lens[b]]).tolist()
        hyps.append([p for p in seq if p != 0])
    return hyps


def make_batches(n, batch_size, gen):
    templates = torch.randn(N_PHONES + 1, N_MELS, generator=gen)
    batches = []
    for _ in range(n):
        lens = torch.randint(2, 5, (batch_size,), generator=gen)
        targets = torch.randint(1, N_PHONES + 1, (batch_size, int(lens.max())), generator=gen)
        feat_lens = lens * FRAMES_PER_PHONE
        feats = torch.zeros(batch_size, int(feat_lens.max()), N_MELS)
        for b in range(batch_size):
            frames = templates[targets[b, :lens[b]]].repeat_interleave(FRAMES_PER_PHONE, 0)
            feats[b, :len(frames)] = frames + 0.3 * torch.randn(frames.shape, generator=gen)
        batches.append((feats, feat_lens, targets, lens))
    return batches


def main(epochs=2):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(21)
    student = InterCTCModel(N_MELS, N_PHONES + 1)
    ema = EMAHelper(student)
    optimizer = torch.optim.AdamW(student.parameters(), lr=2e-3)
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    batches = make_batches(3, 6, gen)
    for epoch in range(epochs):
        running = 0.0
        for feats, feat_lens, targets, target_lens in batches:
            teacher_probs = ema.posteriors(feats, feat_lens)
            log_probs, inter, out_lens = student(spec_augment(feats, gen), feat_lens)
            final_ctc = ctc(log_probs.transpose(0, 1), targets, out_lens, target_lens)
            inter_ctc = ctc(inter.transpose(0, 1), targets, out_lens, target_lens)
            consistency = F.kl_div(log_probs, teacher_probs, reduction="batchmean")
            loss = 0.7 * final_ctc + 0.3 * inter_ctc + 0.5 * consistency
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            ema.update(student)
            running += loss.item()
            hyps = greedy_decode(log_probs.detach(), out_lens)
        print(f"epoch {epoch} loss {running / len(batches):.4f} "
              f"first hyp {hyps[0]} ref {targets[0, :target_lens[0]].tolist()}")
    checksum = sum(p.detach().double().abs().sum().item() for p in student.parameters())
    print(f"param checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
