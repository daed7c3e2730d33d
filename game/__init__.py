"""A top-down arcade game driven by Reynolds' steering behaviours."""

__version__ = "0.1.0"
