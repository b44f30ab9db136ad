"""Autoencoder with separate optimizers for encoder (SGD) and decoder (Adam); the
backward and both steps happen inside helpers.backward_and_step."""
import itertools

import torch
import torch.nn as nn

from helpers import backward_and_step, checksum

torch.manual_seed(20)


def train(epochs=3):
    encoder = nn.Sequential(nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 4))
    decoder = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 16))
    enc_opt = torch.optim.SGD(encoder.parameters(), lr=0.05, momentum=0.9)
    dec_opt = torch.optim.Adam(decoder.parameters(), lr=5e-3)
    data = torch.randn(24, 16)
    params = list(itertools.chain(encoder.parameters(), decoder.parameters()))
    for epoch in range(epochs):
        for batch in data.split(12):
            recon = decoder(encoder(batch))
            loss = nn.functional.mse_loss(recon, batch)
            last = backward_and_step(loss, [enc_opt, dec_opt], max_norm=5.0, params=params)
        print(f"epoch {epoch} loss {last.item():.6f}")
    return encoder, decoder


if __name__ == "__main__":
    enc, dec = train()
    print(f"checksum {checksum(enc, dec):.6f}")
