"""History buffer of generated samples (Shrivastava et al.): the discriminator sees a mix of
the newest fakes and fakes produced by earlier generators."""
import random

import torch


class ImagePool:
    def __init__(self, size=16):
        self.size = size
        self.images = []

    def query(self, images):
        out = []
        for image in images.split(1):
            if len(self.images) < self.size:
                self.images.append(image)
                out.append(image)
            elif random.random() < 0.5:
                idx = random.randrange(self.size)
                out.append(self.images[idx])
                self.images[idx] = image
            else:
                out.append(image)
        return torch.cat(out)
