"""SimGAN's history of refined images: half of every discriminator mini-batch comes from
refined images of earlier steps, so the discriminator does not forget old artefacts."""
import random
from dataclasses import dataclass, field

import torch


@dataclass
class ImageHistoryBuffer:
    capacity: int
    images: list = field(default_factory=list)

    def __len__(self):
        return len(self.images)

    def push(self, batch):
        self.images.extend(batch.detach().unbind(0))
        del self.images[:-self.capacity]

    def sample(self, k):
        return torch.stack(random.sample(self.images, min(k, len(self.images))))
