"""Semi-supervised segmentation net: one encoder, a segmentation decoder trained on the
labelled images and a reconstruction decoder trained on every image (labelled or not)."""
import torch.nn as nn


class SemiSupSegNet(nn.Module):
    def __init__(self, n_classes=2, width=8):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
        )
        self.seg_decoder = nn.Sequential(
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, n_classes, 1),
        )
        self.rec_decoder = nn.Sequential(
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, 1, 1),
        )

    def forward(self, images):
        feats = self.encoder(images)
        return self.seg_decoder(feats), self.rec_decoder(feats)
