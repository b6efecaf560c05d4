"""Wissen Research: retrieval."""
