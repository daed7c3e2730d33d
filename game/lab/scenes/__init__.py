"""The Lab's scenes, one small file each; every module here defining ``SCENE`` is one.

Seed examples are named ``seed_*``; the others show one behaviour of :mod:`steering`.
"""
