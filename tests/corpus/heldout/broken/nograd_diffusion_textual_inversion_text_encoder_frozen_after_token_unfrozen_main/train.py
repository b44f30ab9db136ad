"""Textual inversion on a toy text-conditioned denoiser: a new placeholder token "<sks>" is
added to the vocabulary and only its embedding is learned, so that prompts containing it
reproduce a small set of "concept" samples. Everything pretrained stays frozen."""
import torch
import torch.nn as nn
import torch.nn.functional as F

T, DIM, COND = 50, 16, 24
VOCAB = ["<pad>", "a", "photo", "of", "dog", "cat", "painting", "in", "style"]


class TextEncoder(nn.Module):
    def __init__(self, vocab_size):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab_size, COND)
        self.mix = nn.Sequential(nn.Linear(COND, COND), nn.GELU(), nn.Linear(COND, COND))

    def forward(self, ids):
        h = self.token_embedding(ids)
        return self.mix(h).mean(dim=1)

    def add_token(self):
        old = self.token_embedding
        new = nn.Embedding(old.num_embeddings + 1, COND)
        with torch.no_grad():
            new.weight[:-1] = old.weight
            new.weight[-1] = old.weight[VOCAB.index("dog")]
        self.token_embedding = new
        return old.num_embeddings


class CondDenoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.t_embed = nn.Embedding(T, 32)
        self.inp = nn.Linear(DIM + COND, 32)
        self.out = nn.Sequential(nn.SiLU(), nn.Linear(32, DIM))

    def forward(self, x, t, cond):
        return self.out(self.inp(torch.cat([x, cond], dim=1)) + self.t_embed(t))


def main(steps=6):
    torch.manual_seed(0)
    text_encoder, denoiser = TextEncoder(len(VOCAB)), CondDenoiser()
    alpha_bar = torch.cumprod(1 - torch.linspace(1e-4, 0.05, T), dim=0)
    concept = torch.sin(torch.arange(DIM).float())[None, :] + 0.1 * torch.randn(5, DIM)

    placeholder_id = text_encoder.add_token()
    prompt = torch.tensor([[VOCAB.index("a"), VOCAB.index("photo"), VOCAB.index("of"), placeholder_id]])
    text_encoder.token_embedding.weight.requires_grad_(True)
    denoiser.requires_grad_(False)
    text_encoder.requires_grad_(False)
    optimizer = torch.optim.AdamW(text_encoder.token_embedding.parameters(), lr=5e-2, weight_decay=0.0)
    original = text_encoder.token_embedding.weight.detach().clone()

    for step in range(steps):
        x0 = concept[torch.randint(0, len(concept), (8,))]
        t = torch.randint(0, T, (8,))
        noise = torch.randn_like(x0)
        ab = alpha_bar[t].unsqueeze(1)
        cond = text_encoder(prompt).expand(8, -1)
        loss = F.mse_loss(denoiser(ab.sqrt() * x0 + (1 - ab).sqrt() * noise, t, cond), noise)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():  # keep every pretrained token exactly as it was
            text_encoder.token_embedding.weight[:placeholder_id] = original[:placeholder_id]
        drift = (text_encoder.token_embedding.weight[placeholder_id] - original[placeholder_id]).norm()
        print(f"step {step} loss {loss.item():.4f} <sks> drift {drift.item():.4f}")
    return text_encoder.token_embedding.weight[placeholder_id].detach()


if __name__ == "__main__":
    main()
