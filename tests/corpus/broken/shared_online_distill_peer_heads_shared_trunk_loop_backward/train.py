"""Online knowledge distillation (ONE / KDCL style): two peer classifier heads share a
low-level trunk; each peer learns from the labels and from the other peer's softened
predictions. The Trainer backwards one loss per peer, then takes one optimizer step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_FEATURES, N_CLASSES, TEMPERATURE = 10, 4, 3.0


class PeerNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(N_FEATURES, 32), nn.ReLU())
        self.heads = nn.ModuleDict({
            "peer_a": nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, N_CLASSES)),
            "peer_b": nn.Sequential(nn.Linear(32, 16), nn.Tanh(), nn.Linear(16, N_CLASSES)),
        })


class OnlineDistiller:
    def __init__(self, net, lr=0.05):
        self.net = net
        self.optimizer = torch.optim.SGD(net.parameters(), lr=lr, momentum=0.9)
        self.peers = {"peer_a": "peer_b", "peer_b": "peer_a"}

    def peer_loss(self, logits, peer_logits, labels):
        soft_target = F.softmax(peer_logits.detach() / TEMPERATURE, dim=-1)
        kd = F.kl_div(F.log_softmax(logits / TEMPERATURE, dim=-1), soft_target, reduction="batchmean")
        return F.cross_entropy(logits, labels) + TEMPERATURE ** 2 * kd

    def train_step(self, x, labels):
        feats = self.net.trunk(x)
        logits = {name: head(feats) for name, head in self.net.heads.items()}
        self.optimizer.zero_grad()
        losses = {}
        for name, peer in self.peers.items():
            loss = self.peer_loss(logits[name], logits[peer], labels)
            loss.backward()
            losses[name] = loss.item()
        self.optimizer.step()
        return losses


def main():
    torch.manual_seed(0)
    centers = torch.randn(N_CLASSES, N_FEATURES)
    distiller = OnlineDistiller(PeerNet())
    for step in range(3):
        labels = torch.randint(0, N_CLASSES, (32,))
        x = centers[labels] + 0.7 * torch.randn(32, N_FEATURES)
        losses = distiller.train_step(x, labels)
        print(f"step {step} " + " ".join(f"{k} {v:.4f}" for k, v in losses.items()))


if __name__ == "__main__":
    main()
