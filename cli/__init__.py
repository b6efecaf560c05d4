"""Wissen Research: cli."""
