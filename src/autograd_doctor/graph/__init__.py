"""Read-only functions over autograd graphs and the live objects the user's frames hold: no
hooks, no files, no printing."""
