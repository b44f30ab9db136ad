"""Prototypical networks with rotation self-supervision (S2M2-style).

Every episode's support and query images are fed through the encoder together
with their 90/180/270 degree rotations; the prototypical loss uses the upright
copies and a small head predicts the rotation of every copy.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_WAY, K_SHOT, N_QUERY = 3, 2, 3
N_CLASSES = 6


def conv_block(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out),
                         nn.ReLU(), nn.MaxPool2d(2))


class EpisodeSampler:
    def __init__(self, seed=3):
        self.g = torch.Generator().manual_seed(seed)
        self.templates = torch.rand(N_CLASSES, 1, 8, 8, generator=self.g)

    def sample(self):
        classes = torch.randperm(N_CLASSES, generator=self.g)[:N_WAY]
        per_class = K_SHOT + N_QUERY
        imgs = self.templates[classes].repeat_interleave(per_class, 0)
        imgs = imgs + 0.2 * torch.randn(imgs.shape, generator=self.g)
        imgs = imgs.view(N_WAY, per_class, 1, 8, 8)
        support = imgs[:, :K_SHOT].reshape(-1, 1, 8, 8)
        query = imgs[:, K_SHOT:].reshape(-1, 1, 8, 8)
        return support, query


class ProtoRotTrainer:
    def __init__(self, rot_weight=0.5):
        self.encoder = nn.Sequential(conv_block(1, 16), conv_block(16, 16), nn.Flatten())
        self.rot_head = nn.Linear(16 * 2 * 2, 4)
        params = list(self.encoder.parameters()) + list(self.rot_head.parameters())
        self.opt = torch.optim.Adam(params, lr=1e-3)
        self.rot_weight = rot_weight

    def episode(self, support, query):
        images = torch.cat([support, query])
        n = images.shape[0]
        rotated = torch.cat([torch.rot90(images, k, dims=(2, 3)) for k in range(4)])
        rot_labels = torch.arange(4).repeat_interleave(n)

        feats = self.encoder(rotated)
        upright = feats[:n]
        protos = upright[:len(support)].view(N_WAY, K_SHOT, -1).mean(1)
        dists = torch.cdist(upright[len(support):], protos)
        query_labels = torch.arange(N_WAY).repeat_interleave(N_QUERY)
        proto_loss = F.cross_entropy(-dists, query_labels)
        rot_loss = F.cross_entropy(self.rot_head(feats), rot_labels)

        self.opt.zero_grad()
        (proto_loss + self.rot_weight * rot_loss).backward()
        self.opt.step()
        acc = (dists.argmin(1) == query_labels).float().mean().item()
        return proto_loss.item(), rot_loss.item(), acc

    def fit(self, sampler, n_episodes=6):
        for ep in range(n_episodes):
            p, r, acc = self.episode(*sampler.sample())
            print(f"episode {ep} proto {p:.4f} rot {r:.4f} acc {acc:.2f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    ProtoRotTrainer().fit(EpisodeSampler())
