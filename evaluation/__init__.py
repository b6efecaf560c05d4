"""Evaluation: the golden sets (``evaluation.evalsets``) the harness and optimisers run on."""
