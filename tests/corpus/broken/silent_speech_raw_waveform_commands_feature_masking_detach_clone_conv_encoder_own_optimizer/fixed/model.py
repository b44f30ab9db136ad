"""wav2vec-style command recogniser: conv feature encoder on the raw waveform, time
masking of the encoder features with a learned mask embedding, transformer context layer."""
import torch
import torch.nn as nn


class FeatureEncoder(nn.Module):
    """Strided 1-D convolutions turning raw samples into ~16-sample hops."""

    def __init__(self, dim=16):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Conv1d(1, dim, kernel_size=8, stride=4), nn.GELU(),
            nn.Conv1d(dim, dim, kernel_size=4, stride=2), nn.GELU(),
            nn.Conv1d(dim, dim, kernel_size=4, stride=2), nn.GELU(),
        )
        self.norm = nn.LayerNorm(dim)

    def forward(self, wav):
        return self.norm(self.layers(wav.unsqueeze(1)).transpose(1, 2))  # (B, T, dim)


class CommandRecognizer(nn.Module):
    def __init__(self, n_commands, dim=16, mask_prob=0.15, mask_span=3):
        super().__init__()
        self.feature_encoder = FeatureEncoder(dim)
        self.mask_emb = nn.Parameter(torch.zeros(dim).uniform_())
        self.context = nn.TransformerEncoderLayer(dim, nhead=2, dim_feedforward=2 * dim, dropout=0.0,
                                                  batch_first=True)
        self.classifier = nn.Linear(dim, n_commands)
        self.mask_prob, self.mask_span = mask_prob, mask_span

    def time_mask(self, batch, frames, generator=None):
        starts = torch.rand(batch, frames, generator=generator) < self.mask_prob / self.mask_span
        mask = starts.clone()
        for shift in range(1, self.mask_span):
            mask[:, shift:] |= starts[:, :-shift]
        return mask

    def forward(self, wav, generator=None):
        feats = self.feature_encoder(wav)
        if self.training:
            mask = self.time_mask(feats.size(0), feats.size(1), generator)
            feats = feats.clone()
            feats[mask] = self.mask_emb
        context = self.context(feats)
        return self.classifier(context.mean(dim=1))
