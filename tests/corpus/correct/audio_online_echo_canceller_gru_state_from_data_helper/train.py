"""Online (streaming) training of a neural echo canceller: the far-end and microphone
streams arrive block by block; the model adapts after every block, carrying its GRU state
to the next block as state.data. A read cursor (int) and a smoothed ERLE (float) are kept
across blocks."""
import torch
import torch.nn.functional as F

from canceller import FRAME, EchoPredictor, erle_db, simulate_room

RATE, BLOCK_FRAMES, BLOCKS = 8000, 8, 8


def frames(signal, start, n_frames):
    return signal[start:start + n_frames * FRAME].view(1, n_frames, FRAME)


torch.manual_seed(0)
gen = torch.Generator().manual_seed(3)
far, mic = simulate_room(0.2, RATE, gen)
model = EchoPredictor()
optimizer = torch.optim.RMSprop(model.parameters(), lr=2e-3)

cursor = FRAME
state = None
prev_far = far[:FRAME].view(1, FRAME)
smoothed_erle = 0.0
for block in range(BLOCKS):
    far_blk = frames(far, cursor, BLOCK_FRAMES)
    mic_blk = frames(mic, cursor, BLOCK_FRAMES)
    echo_hat, state = model(far_blk, prev_far, state)
    residual = mic_blk - echo_hat
    loss = F.mse_loss(echo_hat, mic_blk)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

    state = state.data
    prev_far = far_blk[:, -1]
    cursor += BLOCK_FRAMES * FRAME
    erle = erle_db(mic_blk, residual.detach())
    smoothed_erle = erle if block == 0 else 0.7 * smoothed_erle + 0.3 * erle
    print(f"block {block} cursor {cursor} loss {loss.item():.6f} "
          f"erle {erle:.2f} dB smoothed {smoothed_erle:.2f} dB")

print(f"param checksum {sum(p.detach().sum().item() for p in model.parameters()):.6f}")
