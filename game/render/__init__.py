"""Drawing the game with arcade: generated textures, SpriteLists, batched lines and discs,
route tubes, currents, the F1 debug overlay and the HUD.

Pure-NumPy helpers (:mod:`.geometry`, :mod:`.camera`, :mod:`.particles`, :mod:`.trails`) do the
maths without a window; the rest needs an arcade window's OpenGL context.
"""

from __future__ import annotations
