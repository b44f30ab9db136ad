"""Torch-free edit vocabulary: operations, fix strategies keyed by id, applying edits and
building diffs. Never writes files."""
