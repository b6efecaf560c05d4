"""Wissen Research: signatures — one DSPy Signature per agent and the typed objects agents exchange.

The citation protocol those objects follow (markers, Sources, renumbering, verification,
daggers) lives in its own package, ``citations``.
"""
