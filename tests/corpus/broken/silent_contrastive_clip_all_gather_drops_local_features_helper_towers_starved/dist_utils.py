"""Data-parallel helpers for the image-text run. The multi-node job launches with torchrun; a
local debug run builds a one-process group so that the same code path is exercised."""
import torch
import torch.distributed as dist


def init_distributed():
    if not dist.is_initialized():
        dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
    return dist.get_rank(), dist.get_world_size()


def gather_features(image_features, text_features):
    """Features of every worker, concatenated, so that each worker scores its pairs against
    the global batch (more negatives for the contrastive loss)."""
    world_size = dist.get_world_size()
    all_image = [torch.empty_like(image_features) for _ in range(world_size)]
    all_text = [torch.empty_like(text_features) for _ in range(world_size)]
    dist.all_gather(all_image, image_features)
    dist.all_gather(all_text, text_features)
    return torch.cat(all_image), torch.cat(all_text)
