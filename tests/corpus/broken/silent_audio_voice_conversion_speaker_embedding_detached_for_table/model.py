"""Any-to-any voice conversion autoencoder: a content encoder with a narrow bottleneck, a
speaker encoder that pools a reference utterance into one vector, and a decoder that rebuilds
the mel frames from the content code, FiLM-conditioned on the speaker vector."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS = 20


class SpeakerEncoder(nn.Module):
    def __init__(self, n_mels=N_MELS, dim=16):
        super().__init__()
        self.conv = nn.Conv1d(n_mels, 32, kernel_size=3, padding=1)
        self.proj = nn.Linear(32, dim)

    def forward(self, mel):  # (B, n_mels, T) -> (B, dim)
        pooled = F.relu(self.conv(mel)).mean(dim=2)
        return F.normalize(self.proj(pooled), dim=-1)


class ContentEncoder(nn.Module):
    def __init__(self, n_mels=N_MELS, bottleneck=4):
        super().__init__()
        self.conv1 = nn.Conv1d(n_mels, 32, kernel_size=5, padding=2)
        self.norm = nn.InstanceNorm1d(32)
        self.conv2 = nn.Conv1d(32, bottleneck, kernel_size=5, padding=2)

    def forward(self, mel):
        return self.conv2(F.relu(self.norm(self.conv1(mel))))


class Decoder(nn.Module):
    def __init__(self, bottleneck=4, spk_dim=16, n_mels=N_MELS, hidden=32):
        super().__init__()
        self.conv_in = nn.Conv1d(bottleneck, hidden, kernel_size=5, padding=2)
        self.film = nn.Linear(spk_dim, 2 * hidden)
        self.conv_out = nn.Conv1d(hidden, n_mels, kernel_size=5, padding=2)

    def forward(self, content, spk):
        h = self.conv_in(content)
        gamma, beta = self.film(spk).unsqueeze(-1).chunk(2, dim=1)
        return self.conv_out(F.relu(h * (1 + gamma) + beta))


class VoiceConverter(nn.Module):
    def __init__(self):
        super().__init__()
        self.content = ContentEncoder()
        self.speaker = SpeakerEncoder()
        self.decoder = Decoder()
        self.speaker_table = {}  # speaker id -> latest embedding, used for conversion at inference

    def forward(self, source, reference, speaker_ids):
        spk = self.speaker(reference).detach()
        for sid, emb in zip(speaker_ids.tolist(), spk):
            self.speaker_table[sid] = emb
        return self.decoder(self.content(source), spk)

    @torch.no_grad()
    def convert(self, source, target_speaker):
        spk = self.speaker_table[target_speaker].unsqueeze(0).expand(source.shape[0], -1)
        return self.decoder(self.content(source), spk)
