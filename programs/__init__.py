"""Wissen Research: programs."""
