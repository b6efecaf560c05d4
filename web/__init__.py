"""The browser front end: ``research serve``.

Server-rendered pages over the grid, the page store and the run directories, a little
JavaScript for the live trace (server-sent events) and the citation side panel, and no
build step. Filing text and model output are untrusted: templates escape them and report
HTML passes through a sanitiser.
"""
