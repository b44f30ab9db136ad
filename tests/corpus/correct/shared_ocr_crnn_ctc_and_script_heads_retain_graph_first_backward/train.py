"""Text-line recogniser with a CTC head and a script-ID head on one shared encoder.

The two losses are backwarded separately so that the encoder gradient of each task can be
logged; the first backward keeps the shared graph (retain_graph=True), the second frees it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(14)
N_CHARS, N_SCRIPTS, DIM = 10, 3, 24


class CRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d((4, 1)))
        self.rnn = nn.GRU(16, DIM // 2, batch_first=True, bidirectional=True)
        self.ctc_head = nn.Linear(DIM, N_CHARS + 1)
        self.script_head = nn.Linear(DIM, N_SCRIPTS)

    def forward(self, images):
        seq = self.conv(images).squeeze(2).transpose(1, 2)
        feats, _ = self.rnn(seq)
        return self.ctc_head(feats).log_softmax(-1), self.script_head(feats.mean(1))


def encoder_grad_norm(model):
    grads = [p.grad.norm() for n, p in model.named_parameters()
             if not n.startswith(("ctc_head", "script_head")) and p.grad is not None]
    return torch.stack(grads).norm().item()


model = CRNN()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

for step in range(5):
    b = 4
    images = torch.rand(b, 1, 8, 32)
    lens = torch.randint(2, 5, (b,))
    labels = torch.randint(1, N_CHARS + 1, (int(lens.sum()),))
    script = torch.randint(0, N_SCRIPTS, (b,))

    log_probs, script_logits = model(images)
    t = log_probs.shape[1]
    ctc = F.ctc_loss(log_probs.transpose(0, 1), labels, torch.full((b,), t, dtype=torch.long), lens)
    sid = F.cross_entropy(script_logits, script)

    opt.zero_grad()
    ctc.backward(retain_graph=True)
    g_ctc = encoder_grad_norm(model)
    (0.5 * sid).backward()
    g_all = encoder_grad_norm(model)
    opt.step()
    print(f"step {step} ctc {ctc.item():.4f} script {sid.item():.4f} "
          f"enc-grad ctc {g_ctc:.4f} both {g_all:.4f}")

print(f"checksum {sum(p.abs().sum().item() for p in model.parameters()):.6f}")
