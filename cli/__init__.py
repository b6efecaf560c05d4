"""Wissen Research: the ``research`` command line — options in, messages and exit codes out.

Each command parses its options, calls the package that does the work (``runs`` for a
research run or an optimisation, ``evaluation``, ``retrieval``) and renders the result;
errors those packages raise become one-line messages (``cli.errors``).
"""
