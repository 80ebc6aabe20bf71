"""Generalized exact cover: the problem model and the C search kernel."""
