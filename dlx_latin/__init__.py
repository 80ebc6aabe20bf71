"""dlx-latin: exact combinatorics of Latin boards on a dancing-links kernel."""

__version__ = "0.1.0"
