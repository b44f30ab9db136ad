"""The only code that changes torch's global state: wrappers, the bounded ledger, and the
watches that run during training."""
