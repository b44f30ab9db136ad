"""Unsupervised domain adaptation (DANN without a gradient-reversal layer): a domain
critic learns to tell source features from target features, then the feature extractor
and classifier learn the labelled source task while trying to fool the critic. One
feature forward per batch, two optimizers."""
import torch
import torch.nn as nn
import torch.nn.functional as F

IN_DIM, FEAT, CLASSES = 24, 16, 4


def make_domain(n, shift, seed):
    centers = torch.randn(CLASSES, IN_DIM, generator=torch.Generator().manual_seed(7))
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, CLASSES, (n,), generator=g)
    x = centers[y] + 0.6 * torch.randn(n, IN_DIM, generator=g) + shift
    return x, y


class DANNTrainer:
    def __init__(self, lam=0.3, lr=1e-3):
        self.features = nn.Sequential(
            nn.Linear(IN_DIM, 32), nn.ReLU(), nn.Linear(32, FEAT), nn.ReLU())
        self.classifier = nn.Linear(FEAT, CLASSES)
        self.critic = nn.Sequential(nn.Linear(FEAT, 16), nn.ReLU(), nn.Linear(16, 1))
        self.opt_model = torch.optim.Adam(
            [*self.features.parameters(), *self.classifier.parameters()], lr=lr)
        self.opt_critic = torch.optim.Adam(self.critic.parameters(), lr=lr)
        self.lam = lam
        self.history = []

    def train_step(self, xs, ys, xt):
        fs, ft = self.features(xs), self.features(xt)
        dom_logits = self.critic(torch.cat([fs, ft]))
        dom_labels = torch.cat([torch.ones(len(xs), 1), torch.zeros(len(xt), 1)])

        # (1) critic: source = 1, target = 0
        critic_loss = F.binary_cross_entropy_with_logits(dom_logits, dom_labels)
        self.opt_critic.zero_grad()
        critic_loss.backward(retain_graph=True)
        self.opt_critic.step()

        # (2) features + classifier: source labels, and flip the critic's domain labels
        cls_loss = F.cross_entropy(self.classifier(fs), ys)
        dom_logits = self.critic(torch.cat([fs, ft]))  # fresh pass through the updated critic
        confusion = F.binary_cross_entropy_with_logits(dom_logits, 1.0 - dom_labels)
        loss = cls_loss + self.lam * confusion
        self.opt_model.zero_grad()
        loss.backward()
        self.opt_model.step()
        self.history.append((critic_loss.item(), cls_loss.item()))

    def fit(self, source, target, epochs=2, batch=32):
        (xs_all, ys_all), (xt_all, _) = source, target
        for epoch in range(epochs):
            for i in range(0, len(xs_all), batch):
                self.train_step(xs_all[i:i + batch], ys_all[i:i + batch],
                                xt_all[i:i + batch])
            d, c = self.history[-1]
            print(f"epoch {epoch} critic {d:.4f} source ce {c:.4f}")

    @torch.no_grad()
    def target_accuracy(self, target):
        xt, yt = target
        return (self.classifier(self.features(xt)).argmax(1) == yt).float().mean().item()


if __name__ == "__main__":
    torch.manual_seed(0)
    source = make_domain(96, shift=0.0, seed=1)
    target = make_domain(96, shift=0.8, seed=2)
    trainer = DANNTrainer()
    trainer.fit(source, target)
    print(f"target accuracy {trainer.target_accuracy(target):.3f}")
