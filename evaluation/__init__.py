"""Wissen Research: evaluation — golden sets, what each scores, optimisers, compiled state.

Loading the golden sets (``evaluation.evalsets``), the task and metric of each set
(``evaluation.tasks``), the evaluation harness, the DSPy optimisers, saving and loading a
compiled program's state, and the MLflow prompt registry.
"""
