"""Online knowledge distillation with an on-the-fly ensemble teacher (ONE / KDCL style) for
keyword spotting on MFCC-like frames: three peer networks learn from the labels and from the
average of their own predictions. Each peer has its own optimizer."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_MFCC, FRAMES, N_WORDS, BATCH, TEMP = 13, 16, 5, 24, 2.0


def make_peer(kind):
    if kind == "cnn":
        return nn.Sequential(nn.Conv1d(N_MFCC, 24, 3, padding=1), nn.ReLU(),
                             nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(24, N_WORDS))
    if kind == "mlp":
        return nn.Sequential(nn.Flatten(), nn.Linear(N_MFCC * FRAMES, 48), nn.ReLU(),
                             nn.Linear(48, N_WORDS))
    return nn.Sequential(nn.Conv1d(N_MFCC, 16, 5, padding=2), nn.Tanh(),
                         nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(16, N_WORDS))


def keyword_batch(n, templates):
    words = torch.randint(0, N_WORDS, (n,))
    return templates[words] + 0.5 * torch.randn(n, N_MFCC, FRAMES), words


def distill_term(student_logits, teacher_logits):
    return F.kl_div(F.log_softmax(student_logits / TEMP, dim=1),
                    F.softmax(teacher_logits / TEMP, dim=1), reduction="batchmean") * TEMP ** 2


torch.manual_seed(0)
templates = torch.randn(N_WORDS, N_MFCC, FRAMES)
peers = nn.ModuleList([make_peer(k) for k in ("cnn", "mlp", "cnn_tanh")])
optimizers = [torch.optim.Adam(p.parameters(), lr=1e-3) for p in peers]

for step in range(5):
    mfcc, words = keyword_batch(BATCH, templates)
    logits = [peer(mfcc) for peer in peers]
    ensemble = torch.stack(logits).mean(dim=0)

    step_losses = []
    for peer_logits, opt in zip(logits, optimizers):
        loss = F.cross_entropy(peer_logits, words) + distill_term(peer_logits, ensemble)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step_losses.append(loss.item())
    ens_acc = (ensemble.argmax(1) == words).float().mean().item()
    print(f"step {step} peer losses {[round(v, 4) for v in step_losses]} ensemble acc {ens_acc:.2f}")
