"""Wissen Research: runs — start one, follow its events, checkpoint, resume, list, track.

The one service every front end uses (``research ask``, ``research runs``, ``research
optimise``, the web app): ``runs.service`` prepares and executes a research run (in the
caller's thread or a background one), ``runs.events`` keeps its events for any number of
readers, ``runs.run_dir`` its directory (status, report, record) and the listing,
``runs.resume`` what a resume restores, ``runs.checkpoint`` the finished work on disk,
``runs.redaction`` keeps secrets out of all of it, ``runs.tracking`` logs runs to MLflow and
``runs.optimisation`` is the compile-and-select run behind ``research optimise``.
"""
