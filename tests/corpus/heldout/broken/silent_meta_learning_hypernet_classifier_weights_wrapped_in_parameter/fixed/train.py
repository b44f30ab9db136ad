"""Few-shot classification with a hypernetwork head: the support set is
summarised into a task code, a hypernetwork turns the code into the weights
of the episode's linear classifier, and query features are classified with
those generated weights."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_WAY, K_SHOT, N_QUERY, D_IN, D_FEAT = 4, 3, 5, 10, 16


class HyperFewShot(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(D_IN, 32), nn.ReLU(), nn.Linear(32, D_FEAT))
        self.hypernet = nn.Sequential(nn.Linear(D_FEAT, 64), nn.ReLU(),
                                      nn.Linear(64, D_FEAT))
        self.scale = 4.0

    def forward(self, support, query):
        s_feat = self.backbone(support)                       # [N_WAY, K_SHOT, D_FEAT]
        class_codes = s_feat.mean(1)                          # [N_WAY, D_FEAT]
        # one generated weight row per class of this episode
        weight = self.hypernet(class_codes)
        q_feat = F.normalize(self.backbone(query), dim=-1)
        return self.scale * q_feat @ F.normalize(weight, dim=-1).t()


class EpisodeStream:
    def __init__(self, n_classes=8, seed=13):
        self.g = torch.Generator().manual_seed(seed)
        self.means = 2 * torch.randn(n_classes, D_IN, generator=self.g)

    def next(self):
        cls = torch.randperm(len(self.means), generator=self.g)[:N_WAY]
        support = self.means[cls, None] + torch.randn(N_WAY, K_SHOT, D_IN, generator=self.g)
        query = self.means[cls].repeat_interleave(N_QUERY, 0)
        query = query + torch.randn(N_WAY * N_QUERY, D_IN, generator=self.g)
        return support, query, torch.arange(N_WAY).repeat_interleave(N_QUERY)


def main(n_episodes=8):
    torch.manual_seed(0)
    model = HyperFewShot()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    stream = EpisodeStream()
    for ep in range(n_episodes):
        support, query, target = stream.next()
        logits = model(support, query)
        loss = F.cross_entropy(logits, target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        acc = (logits.argmax(1) == target).float().mean().item()
        print(f"episode {ep} loss {loss.item():.4f} acc {acc:.2f}")
    return model


if __name__ == "__main__":
    trained = main()
    print("checksum", round(sum(p.sum().item() for p in trained.parameters()), 4))
