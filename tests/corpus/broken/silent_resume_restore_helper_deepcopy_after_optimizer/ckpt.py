"""Checkpoint helpers shared by the training and evaluation scripts."""
import copy


def snapshot(model, optimizer, step):
    return {"model": copy.deepcopy(model.state_dict()),
            "optimizer": copy.deepcopy(optimizer.state_dict()), "step": step}


def restore(model, checkpoint):
    """A copy of `model` carrying the checkpoint's weights; the original is left untouched,
    so an evaluation script can compare the two."""
    restored = copy.deepcopy(model)
    restored.load_state_dict(checkpoint["model"])
    return restored
