"""Wissen Research: crash-safe files — written whole or not at all, read as data or as absent.

Run directories, checkpoints and saved programs all go through these few functions, which
import nothing heavy (the command line reads run directories without loading DSPy).
"""

from atomicfiles.json_files import read_json, write_atomic, write_json_atomic

__all__ = ["read_json", "write_atomic", "write_json_atomic"]
