"""P-tuning a frozen tiny transformer for sentiment with a verbaliser.

Looks risky, is right:
- the label-word embeddings are read from the frozen embedding table once, before the loop,
  under no_grad: they never change and need no graph;
- the prompt encoder is run again inside the loop, every step;
- the task loss and the prompt-diversity regulariser are backwarded separately (to log the
  prompt encoder's gradient norm per term), the first with retain_graph=True, then one step;
- an EMA copy of the prompt for evaluation is updated under no_grad after the step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from prompting import PromptEncoder, prompt_diversity, verbaliser_logits

VOCAB, D_MODEL, SEQ, N_VIRTUAL, BATCH = 50, 16, 8, 4, 8
LABEL_WORDS = torch.tensor([[10, 11, 12], [5, 6, 7]])  # negative, positive


class TinyEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, D_MODEL)
        self.layer = nn.TransformerEncoderLayer(D_MODEL, nhead=2, dim_feedforward=32,
                                                dropout=0.0, batch_first=True)

    def forward(self, inputs_embeds):
        return self.layer(inputs_embeds)


def make_batch():
    labels = torch.randint(0, 2, (BATCH,))
    ids = torch.randint(15, VOCAB, (BATCH, SEQ))
    ids[:, :2] = LABEL_WORDS[labels][:, torch.randint(0, 3, (2,))]
    return ids, labels


def grad_norm(module):
    return torch.sqrt(sum(p.grad.pow(2).sum() for p in module.parameters())).item()


def main():
    torch.manual_seed(0)
    backbone = TinyEncoder().requires_grad_(False)
    prompt_encoder = PromptEncoder(N_VIRTUAL, D_MODEL)
    log_scale = nn.Parameter(torch.tensor(1.0))
    optimizer = torch.optim.AdamW(list(prompt_encoder.parameters()) + [log_scale], lr=1e-2)
    with torch.no_grad():
        label_word_embeds = backbone.embed(LABEL_WORDS)
        ema_prompt = prompt_encoder().clone()

    for epoch in range(2):
        for _ in range(3):
            ids, labels = make_batch()
            prompt = prompt_encoder()
            tokens = backbone.embed(ids)
            inputs = torch.cat([prompt.unsqueeze(0).expand(BATCH, -1, -1), tokens], dim=1)
            hidden = backbone(inputs)[:, :N_VIRTUAL].mean(dim=1)
            logits = verbaliser_logits(hidden, label_word_embeds, log_scale.exp())
            task_loss = F.cross_entropy(logits, labels)
            div_loss = 0.1 * prompt_diversity(prompt)

            optimizer.zero_grad()
            task_loss.backward(retain_graph=True)  # div_loss still needs the prompt graph
            g_task = grad_norm(prompt_encoder)
            div_loss.backward()
            g_total = grad_norm(prompt_encoder)
            optimizer.step()
            with torch.no_grad():
                ema_prompt.lerp_(prompt_encoder(), 0.2)
        print(f"epoch {epoch} task {task_loss.item():.4f} div {div_loss.item():.4f} "
              f"|g_task| {g_task:.4f} |g_total| {g_total:.4f} ema {ema_prompt.norm().item():.4f}")
    checksum = sum(p.detach().sum().item() for p in prompt_encoder.parameters())
    print(f"param checksum {checksum + log_scale.item():.6f}")


if __name__ == "__main__":
    main()
