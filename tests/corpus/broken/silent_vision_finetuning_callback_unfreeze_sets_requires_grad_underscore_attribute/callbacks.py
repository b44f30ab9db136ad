"""Training callbacks for the defect classifier."""


class BackboneFinetuning:
    """Train the new head alone for the first epochs, then unfreeze the pretrained backbone."""

    def __init__(self, unfreeze_at_epoch=1):
        self.unfreeze_at_epoch = unfreeze_at_epoch

    def on_train_start(self, model):
        model.backbone.requires_grad_(False)
        model.backbone.eval()

    def on_epoch_start(self, epoch, model):
        if epoch == self.unfreeze_at_epoch:
            for p in model.backbone.parameters():
                p.requires_grad_ = True
            model.backbone.train()
            print(f"epoch {epoch}: backbone unfrozen")


class LossPrinter:
    def __init__(self):
        self.seen = []

    def on_epoch_end(self, epoch, losses):
        self.seen.append(sum(losses) / len(losses))
        print(f"epoch {epoch} loss {self.seen[-1]:.4f}")
