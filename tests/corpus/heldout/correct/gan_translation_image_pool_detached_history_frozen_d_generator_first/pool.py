"""History of generated samples (Shrivastava et al. 2017), as used by CycleGAN: the
discriminator sees a mix of the newest fakes and older ones, which stabilises training."""
import random

import torch


class ImagePool:
    def __init__(self, size=48, seed=0):
        self.size = size
        self.images = []
        self.rng = random.Random(seed)

    def query(self, images):
        """Returns a batch for the discriminator; stores detached copies only."""
        out = []
        for img in images.detach():
            if len(self.images) < self.size:
                self.images.append(img.clone())
                out.append(img)
            elif self.rng.random() < 0.5:
                idx = self.rng.randrange(self.size)
                out.append(self.images[idx].clone())
                self.images[idx] = img.clone()
            else:
                out.append(img)
        return torch.stack(out)
