"""Speaker embedding network with momentum-updated class centroids (GE2E-flavoured loss)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SpeakerEncoder(nn.Module):
    def __init__(self, n_mels, n_speakers, emb_dim=16, momentum=0.8):
        super().__init__()
        self.frame_net = nn.Sequential(nn.Linear(n_mels, 32), nn.ReLU(), nn.Linear(32, emb_dim))
        self.w = nn.Parameter(torch.tensor(10.0))
        self.b = nn.Parameter(torch.tensor(-5.0))
        self.momentum = momentum
        self.register_buffer("centroids", F.normalize(torch.randn(n_speakers, emb_dim), dim=-1))

    def forward(self, mels):
        return F.normalize(self.frame_net(mels).mean(1), dim=-1)

    def similarity_logits(self, emb):
        return self.w * emb @ F.normalize(self.centroids, dim=-1).t() + self.b

    def update_centroids(self, emb, speakers):
        for s in speakers.unique():
            batch_mean = emb[speakers == s].mean(0)
            self.centroids[s] = self.momentum * self.centroids[s] + (1 - self.momentum) * batch_mean
