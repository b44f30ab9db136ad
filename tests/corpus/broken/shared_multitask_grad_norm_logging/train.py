"""Multi-task training that logs how hard the sentiment loss alone pulls on the trunk."""
import torch
import torch.nn.functional as F

from model import TwoHeadNet

torch.manual_seed(0)


def trunk_grad_norm(model):
    return torch.norm(torch.stack([p.grad.norm() for p in model.trunk.parameters()])).item()


def train(steps=4, batch=8, seq=6):
    model = TwoHeadNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    history = []
    for step in range(steps):
        tokens = torch.randint(0, 40, (batch, seq))
        labels = torch.randint(0, 2, (batch,))
        lengths = torch.rand(batch, 1) * seq
        feats = model.trunk(model.embed(tokens))
        loss_sent = F.cross_entropy(model.sentiment(feats), labels)
        loss_len = F.smooth_l1_loss(model.length(feats), lengths)
        opt.zero_grad()
        loss_sent.backward()
        sent_norm = trunk_grad_norm(model)
        loss_len.backward()
        total_norm = trunk_grad_norm(model)
        history.append((sent_norm, total_norm))
        opt.step()
    return loss_sent.item(), loss_len.item(), history


loss_sent, loss_len, history = train()
print(f"sentiment {loss_sent:.4f} length {loss_len:.4f} "
      f"trunk grad norm (sentiment only / total) {history[-1][0]:.4f} / {history[-1][1]:.4f}")
