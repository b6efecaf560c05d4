"""Wissen Research: language models — which model each agent runs on, and how it survives faults.

Specs, keys and start-up checks (``lm.language_models``), per-agent overrides
(``lm.agent_overrides``), the per-run model set (``lm.run_models``), ``ResilientLM`` with its
fault reading (``lm.faults``) and policies (``lm.policies``), the in-process local engine and
its weights, and the one adapter to DSPy internals (``lm.dspy_internals``). Raises its own
errors; front ends turn them into messages and exit codes.
"""
