"""Wissen Research: programs — the agents as DSPy modules, composed into ``ResearchProgram``.

Planner, probe generator, researcher, reviewer, synthesiser and composer, the scheduler that
runs them over slices, and what they need from the outside as narrow interfaces: an event
observer (``programs.events``) and a checkpoint (``programs.checkpoints``).
"""
