"""Torch-free reading of the user's source: syntax trees, places, the shapes of code that matter
to autograd. Shared by diagnosis and lint; never imports torch."""
