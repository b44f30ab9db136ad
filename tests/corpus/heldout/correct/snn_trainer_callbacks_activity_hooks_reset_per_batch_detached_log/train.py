"""Spiking classifier for tactile-sensor event streams, trained by a small callback trainer.
Forward hooks on both LIF layers serve two purposes: the spikes of the current batch (with
their graph) feed an activity regulariser, and detached per-batch firing rates are logged for
the report at the end. The hooks are reset by a callback at the start of every batch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_TAXELS, N_HID, N_CLASSES, T, BATCH = 20, 32, 3, 8, 16


def spike_fn(v):
    sg = torch.sigmoid(4 * v)
    return (v > 0).float() + sg - sg.detach()


class LIFLayer(nn.Module):
    def __init__(self, n_in, n_out, beta=0.9):
        super().__init__()
        self.fc, self.beta = nn.Linear(n_in, n_out), beta

    def forward(self, x_seq):
        mem = torch.zeros(x_seq.shape[1], self.fc.out_features)
        spikes = []
        for x in x_seq:
            mem = self.beta * mem + self.fc(x)
            spk = spike_fn(mem - 1.0)
            mem = mem - spk
            spikes.append(spk)
        return torch.stack(spikes)


class ActivityHook:
    def __init__(self, name, layer):
        self.name, self.current, self.rate_log = name, None, []
        layer.register_forward_hook(self)

    def __call__(self, module, inputs, output):
        self.current = output
        self.rate_log.append(output.detach().mean().item())

    def reset(self):
        self.current = None


class ResetActivityHooks:
    def __init__(self, hooks):
        self.hooks = hooks

    def on_batch_start(self, trainer):
        for hook in self.hooks:
            hook.reset()

    def on_batch_end(self, trainer, loss):
        pass


class Printer:
    def on_batch_start(self, trainer):
        pass

    def on_batch_end(self, trainer, loss):
        print(f"step {trainer.step}  loss {loss:.4f}")


class Trainer:
    def __init__(self, model, hooks, callbacks, reg_weight=0.5, target_rate=0.15):
        self.model, self.hooks, self.callbacks = model, hooks, callbacks
        self.optimizer = torch.optim.Adam(model.parameters(), lr=2e-2)
        self.reg_weight, self.target_rate, self.step = reg_weight, target_rate, 0

    def fit(self, batches):
        for self.step, (events, labels) in enumerate(batches):
            for cb in self.callbacks:
                cb.on_batch_start(self)
            logits = self.model(events).mean(0)
            reg = sum((h.current.mean() - self.target_rate).pow(2) for h in self.hooks)
            loss = F.cross_entropy(logits, labels) + self.reg_weight * reg
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            for cb in self.callbacks:
                cb.on_batch_end(self, loss.item())


def tactile_batches(n):
    textures = torch.rand(N_CLASSES, N_TAXELS) * 0.9
    for _ in range(n):
        labels = torch.randint(0, N_CLASSES, (BATCH,))
        yield (torch.rand(T, BATCH, N_TAXELS) < textures[labels]).float(), labels


model = nn.Sequential(LIFLayer(N_TAXELS, N_HID), LIFLayer(N_HID, N_CLASSES))
hooks = [ActivityHook("hidden", model[0]), ActivityHook("output", model[1])]
trainer = Trainer(model, hooks, [ResetActivityHooks(hooks), Printer()])
trainer.fit(tactile_batches(6))
for hook in hooks:
    print(f"{hook.name} rates: " + " ".join(f"{r:.3f}" for r in hook.rate_log))
print(f"parameter checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
