"""Vectorised steering behaviours: pure NumPy, no arcade, no pymunk."""
