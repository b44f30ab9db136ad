"""Small CTC phone recogniser (conv front-end + BiGRU) on synthetic filterbank features,
ported from a hand-written loop into the team's Lightning-style engine."""
import torch
import torch.nn as nn

from engine import LitModule, Trainer

N_MELS, N_PHONES, FRAMES_PER_PHONE = 12, 5, 4


class CTCRecognizer(LitModule):
    # training_step does its own backward, clipping and step: the engine must not repeat them
    automatic_optimization = False

    def __init__(self, hidden=32):
        super().__init__()
        self.frontend = nn.Sequential(nn.Conv1d(N_MELS, hidden, 3, padding=1), nn.ReLU(),
                                      nn.Conv1d(hidden, hidden, 3, stride=2, padding=1),
                                      nn.ReLU())
        self.rnn = nn.GRU(hidden, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, N_PHONES + 1)  # index 0 is the CTC blank
        self.ctc = nn.CTCLoss(blank=0, zero_infinity=True)

    def forward(self, feats, feat_lens):
        x = self.frontend(feats.transpose(1, 2)).transpose(1, 2)
        x, _ = self.rnn(x)
        out_lens = (feat_lens + 1) // 2
        return self.out(x).log_softmax(-1), out_lens

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=3e-3)

    def training_step(self, batch, batch_idx):
        feats, feat_lens, targets, target_lens = batch
        log_probs, out_lens = self(feats, feat_lens)
        loss = self.ctc(log_probs.transpose(0, 1), targets, out_lens, target_lens)
        opt = self.optimizers()
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.parameters(), 5.0)  # CTC gradients spike early on
        opt.step()
        self.log("train_ctc", loss.item())
        return {"loss": loss, "frames": int(out_lens.sum())}

    def on_train_epoch_end(self):
        ctc = self.trainer.logged["train_ctc"][-3:]
        print(f"epoch {self.trainer.current_epoch} ctc {[round(v, 4) for v in ctc]}")


def make_batches(n_batches, batch_size, gen):
    templates = torch.randn(N_PHONES + 1, N_MELS, generator=gen)
    batches = []
    for _ in range(n_batches):
        lens = torch.randint(2, 5, (batch_size,), generator=gen)
        targets = torch.randint(1, N_PHONES + 1, (batch_size, int(lens.max())), generator=gen)
        feat_lens = lens * FRAMES_PER_PHONE
        feats = torch.zeros(batch_size, int(feat_lens.max()), N_MELS)
        for b in range(batch_size):
            frames = templates[targets[b, :lens[b]]].repeat_interleave(FRAMES_PER_PHONE, 0)
            feats[b, :len(frames)] = frames + 0.3 * torch.randn(frames.shape, generator=gen)
        batches.append((feats, feat_lens, targets, lens))
    return batches


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(11)
    model = CTCRecognizer()
    Trainer(max_epochs=2).fit(model, make_batches(3, 6, gen))


if __name__ == "__main__":
    main()
