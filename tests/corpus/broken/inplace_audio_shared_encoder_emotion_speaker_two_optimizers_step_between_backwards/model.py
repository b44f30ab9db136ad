"""Frame encoder shared by an emotion head and a speaker head."""
import torch.nn as nn

N_MELS, EMB, N_EMOTIONS, N_SPEAKERS = 20, 24, 4, 6


class FrameEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(N_MELS, 32, kernel_size=5, padding=2), nn.GELU(),
            nn.Conv1d(32, 32, kernel_size=3, padding=1), nn.GELU(),
        )
        self.proj = nn.Linear(32, EMB)

    def forward(self, mels):  # (batch, mels, frames)
        return self.proj(self.conv(mels).mean(-1))


class EmotionSpeakerNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = FrameEncoder()
        self.emotion_head = nn.Sequential(nn.Tanh(), nn.Linear(EMB, N_EMOTIONS))
        self.speaker_head = nn.Sequential(nn.Tanh(), nn.Linear(EMB, N_SPEAKERS))
