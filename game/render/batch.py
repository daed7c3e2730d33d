"""Batched GPU primitives fed straight from NumPy arrays: one draw call for many shapes.

``arcade.draw_lines`` and ``draw_points`` convert every coordinate through a Python generator
and take one colour per call; the overlay draws thousands of segments in many colours each
frame, so these batches write whole float32/uint8 arrays into a buffer and draw them with one
instanced call. Widths and radii are in world units (the active camera scales them).
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike, NDArray

if TYPE_CHECKING:
    from arcade.context import ArcadeContext
    from arcade.gl import Buffer, Geometry, Program

__all__ = ["DiscBatch", "HairlineBatch", "LineBatch", "TriangleBatch", "colors_of"]

_WINDOW_BLOCK = """
uniform WindowBlock {
    mat4 projection;
    mat4 view;
} window;
"""

_LINE_VS = (
    "#version 330\n"
    + _WINDOW_BLOCK
    + """
uniform float pixel;  // world units per screen pixel: the width of the antialiased fringe
in vec2 in_vert;      // x: 0 at the start, 1 at the end; y: +1 / -1 side
in vec4 in_segment;   // x0, y0, x1, y1
in float in_width;
in vec4 in_color;
out vec2 v_pos;
flat out vec4 v_segment;
flat out float v_radius;
out vec4 v_color;

void main() {
    vec2 a = in_segment.xy;
    vec2 b = in_segment.zw;
    vec2 d = b - a;
    float len = length(d);
    vec2 u = len > 0.0 ? d / len : vec2(1.0, 0.0);
    vec2 n = vec2(-u.y, u.x);
    float r = max(in_width * 0.5, pixel * 0.5);
    float e = r + pixel;
    vec2 p = (in_vert.x < 0.5 ? a - u * e : b + u * e) + n * (in_vert.y * e);
    v_pos = p;
    v_segment = in_segment;
    v_radius = in_width * 0.5;
    // lines thinner than a pixel are drawn one pixel wide, fainter
    v_color = vec4(in_color.rgb, in_color.a * min(in_width / pixel, 1.0));
    gl_Position = window.projection * window.view * vec4(p, 0.0, 1.0);
}
"""
)

_LINE_FS = """#version 330
uniform float pixel;
in vec2 v_pos;
flat in vec4 v_segment;
flat in float v_radius;
in vec4 v_color;
out vec4 f_color;

void main() {
    // distance to the segment: a capsule, so caps and joins are round
    vec2 a = v_segment.xy;
    vec2 ba = v_segment.zw - a;
    vec2 pa = v_pos - a;
    float h = clamp(dot(pa, ba) / max(dot(ba, ba), 1e-12), 0.0, 1.0);
    float d = length(pa - ba * h);
    float r = max(v_radius, pixel * 0.5);
    float cover = clamp((r - d) / pixel + 0.5, 0.0, 1.0);
    if (cover <= 0.0) discard;
    f_color = vec4(v_color.rgb, v_color.a * cover);
}
"""

_FLAT_FS = """#version 330
in vec4 v_color;
out vec4 f_color;
void main() {
    f_color = v_color;
}
"""

_DISC_VS = (
    "#version 330\n"
    + _WINDOW_BLOCK
    + """
in vec2 in_vert;      // corner of the unit square, -1..1
in vec4 in_disc;      // x, y, radius, ring thickness (0: filled)
in vec4 in_color;
out vec2 v_local;
out float v_radius;
out float v_ring;
out vec4 v_color;

void main() {
    float pad = max(1.5, in_disc.z * 0.08);
    v_local = in_vert * (in_disc.z + pad);
    v_radius = in_disc.z;
    v_ring = in_disc.w;
    v_color = in_color;
    gl_Position = window.projection * window.view * vec4(in_disc.xy + v_local, 0.0, 1.0);
}
"""
)

_DISC_FS = """#version 330
in vec2 v_local;
in float v_radius;
in float v_ring;
in vec4 v_color;
out vec4 f_color;

void main() {
    float d = length(v_local);
    float aa = max(fwidth(d), 1e-4);
    float a = 1.0 - smoothstep(v_radius - aa, v_radius, d);
    if (v_ring > 0.0) {
        a *= smoothstep(v_radius - v_ring - aa, v_radius - v_ring, d);
    }
    if (a <= 0.0) discard;
    f_color = vec4(v_color.rgb, v_color.a * a);
}
"""

_TRI_VS = (
    "#version 330\n"
    + _WINDOW_BLOCK
    + """
in vec2 in_pos;
in vec4 in_color;
out vec4 v_color;
void main() {
    gl_Position = window.projection * window.view * vec4(in_pos, 0.0, 1.0);
    v_color = in_color;
}
"""
)


def colors_of(color: ArrayLike, n: int) -> NDArray[np.uint8]:
    """(n, 4) uint8 RGBA rows from one colour (3 or 4 values) or an (n, 3|4) array."""
    c = np.asarray(color)
    if c.ndim == 1:
        c = np.broadcast_to(c, (n, c.shape[0]))
    if c.shape[1] == 3:
        c = np.concatenate((c, np.full((c.shape[0], 1), 255)), axis=1)
    return np.ascontiguousarray(c, dtype=np.uint8)


class _Stream:
    """A growable GPU buffer rewritten every frame (orphaned, so the GPU never stalls)."""

    def __init__(self, ctx: ArcadeContext, item_bytes: int, capacity: int) -> None:
        self.item_bytes = item_bytes
        self.capacity = max(capacity, 16)
        self.buffer: Buffer = ctx.buffer(reserve=self.capacity * item_bytes, usage="stream")

    def write(self, data: NDArray[np.generic]) -> None:
        count = data.shape[0]
        if count > self.capacity:
            while self.capacity < count:
                self.capacity *= 2
            self.buffer.orphan(self.capacity * self.item_bytes)
        else:
            self.buffer.orphan()
        if count:
            self.buffer.write(np.ascontiguousarray(data).tobytes())


def _read(stream: _Stream, rows: int, width: int, dtype: type[np.generic]) -> NDArray[np.generic]:
    """The first ``rows`` rows of ``width`` items of a stream, read back from the GPU."""
    size = rows * stream.item_bytes
    data = stream.buffer.read(size=size) if size else b""
    return np.frombuffer(data, dtype=dtype).reshape(-1, width).copy()


class _Parts:
    """Accumulates (geometry, colour) parts during one update, then concatenates them once."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.geom: list[NDArray[np.float32]] = []
        self.color: list[NDArray[np.uint8]] = []

    def add(self, geom: ArrayLike, color: ArrayLike) -> None:
        g = np.asarray(geom, dtype=np.float32).reshape(-1, self.width)
        if g.shape[0] == 0:
            return
        self.geom.append(g)
        self.color.append(colors_of(color, g.shape[0]))

    def take(self) -> tuple[NDArray[np.float32], NDArray[np.uint8]]:
        if not self.geom:
            return np.zeros((0, self.width), np.float32), np.zeros((0, 4), np.uint8)
        g = np.concatenate(self.geom)
        c = np.concatenate(self.color)
        self.geom.clear()
        self.color.clear()
        return g, c


def _limited(count: int, limit: int | None) -> int:
    """How many of a batch's ``count`` items to draw: all, or the first ``limit``."""
    return count if limit is None else min(count, max(int(limit), 0))


class LineBatch:
    """Antialiased line segments with round caps, each with its own width and colour, drawn
    in one call. A wide segment is a capsule, so a polyline of wide segments is a tube with
    round joins (drawn opaque, overlapping joins do not show).

    Fill it with :meth:`add` (any number of times) then :meth:`commit`, or :meth:`set`, in an
    update; :meth:`draw` only issues the draw call.
    """

    def __init__(self, ctx: ArcadeContext, capacity: int = 1024) -> None:
        from arcade.gl import BufferDescription

        self._ctx = ctx
        self._program: Program = ctx.program(vertex_shader=_LINE_VS, fragment_shader=_LINE_FS)
        corners = ctx.buffer(data=array("f", [0.0, 1.0, 0.0, -1.0, 1.0, 1.0, 1.0, -1.0]))
        self._seg = _Stream(ctx, 20, capacity)
        self._col = _Stream(ctx, 4, capacity)
        self._geometry: Geometry = ctx.geometry(
            [
                BufferDescription(corners, "2f", ["in_vert"]),
                BufferDescription(
                    self._seg.buffer, "4f 1f", ["in_segment", "in_width"], instanced=True
                ),
                BufferDescription(
                    self._col.buffer, "4f1", ["in_color"], normalized=["in_color"], instanced=True
                ),
            ],
            mode=ctx.TRIANGLE_STRIP,
        )
        self._parts = _Parts(5)
        self.count = 0

    @staticmethod
    def _rows(segments: ArrayLike, width: ArrayLike) -> NDArray[np.float32]:
        g = np.asarray(segments, dtype=np.float32).reshape(-1, 4)
        rows = np.empty((g.shape[0], 5), np.float32)
        rows[:, :4] = g
        rows[:, 4] = np.broadcast_to(np.asarray(width, dtype=np.float32), (g.shape[0],))
        return rows

    def add(self, segments: ArrayLike, color: ArrayLike, width: ArrayLike = 1.0) -> None:
        """Queue segments: (K, 4) ``x0, y0, x1, y1`` rows (or (K, 2, 2)); one colour or (K, 4);
        width in world units, one or (K,)."""
        self._parts.add(self._rows(segments, width), color)

    def add_strip(
        self, points: ArrayLike, color: ArrayLike, width: ArrayLike = 1.0, closed: bool = False
    ) -> None:
        """Queue a polyline through (K, 2) points (closed: back to the first)."""
        p = np.asarray(points, dtype=np.float32).reshape(-1, 2)
        if p.shape[0] < 2:
            return
        end = np.roll(p, -1, axis=0) if closed else p[1:]
        start = p if closed else p[:-1]
        self.add(np.concatenate((start, end), axis=1), color, width)

    def commit(self) -> None:
        """Upload everything queued since the last commit (replacing the previous batch)."""
        g, c = self._parts.take()
        self._upload(g, c)

    def set(self, segments: ArrayLike, colors: ArrayLike, width: ArrayLike = 1.0) -> None:
        """Replace the batch with these segments, colours and widths."""
        rows = self._rows(segments, width)
        self._upload(rows, colors_of(colors, rows.shape[0]))

    def _upload(self, rows: NDArray[np.float32], colors: NDArray[np.uint8]) -> None:
        self._seg.write(rows)
        self._col.write(colors)
        self.count = int(rows.shape[0])

    def uploaded(self) -> tuple[NDArray[np.float32], NDArray[np.uint8]]:
        """The last upload read back from the GPU: (count, 5) ``x0, y0, x1, y1, width`` rows
        and (count, 4) colours (for tests and tools; it waits for the GPU)."""
        rows = _read(self._seg, self.count, 5, np.float32)
        return rows.astype(np.float32), _read(self._col, self.count, 4, np.uint8).astype(np.uint8)

    def draw(self, pixel: float = 1.0, limit: int | None = None) -> None:
        """Draw all segments, or the first ``limit`` of them (one call).

        Args:
            pixel: World units per screen pixel (1 / camera zoom), the antialiasing width.
            limit: Draw only this many (a level of detail); None: all.
        """
        count = _limited(self.count, limit)
        if count == 0:
            return
        self._program["pixel"] = float(pixel)
        with self._ctx.enabled(self._ctx.BLEND):
            self._geometry.render(self._program, vertices=4, instances=count)


class HairlineBatch:
    """One-pixel lines (``GL_LINES``), each with its own colour, drawn in one call.

    The cheapest line there is on a software renderer (about half the cost of a quad per
    segment on llvmpipe), for the debug overlay's tens of thousands of segments; not
    antialiased, as in the seeds' 1 px strokes.
    """

    def __init__(self, ctx: ArcadeContext, capacity: int = 4096) -> None:
        from arcade.gl import BufferDescription

        self._ctx = ctx
        self._program: Program = ctx.program(vertex_shader=_TRI_VS, fragment_shader=_FLAT_FS)
        self._pos = _Stream(ctx, 8, 2 * capacity)
        self._col = _Stream(ctx, 4, 2 * capacity)
        self._geometry: Geometry = ctx.geometry(
            [
                BufferDescription(self._pos.buffer, "2f", ["in_pos"]),
                BufferDescription(self._col.buffer, "4f1", ["in_color"], normalized=["in_color"]),
            ],
            mode=ctx.LINES,
        )
        self._parts = _Parts(4)
        self.count = 0

    def add(self, segments: ArrayLike, color: ArrayLike) -> None:
        """Queue (K, 4) ``x0, y0, x1, y1`` segments, one colour or (K, 4)."""
        self._parts.add(segments, color)

    def commit(self) -> None:
        """Upload everything queued since the last commit."""
        g, c = self._parts.take()
        self._pos.write(g.reshape(-1, 2))
        self._col.write(np.repeat(c, 2, axis=0))
        self.count = int(g.shape[0])

    def uploaded(self) -> tuple[NDArray[np.float32], NDArray[np.uint8]]:
        """The last upload read back from the GPU: (count, 4) ``x0, y0, x1, y1`` segments and
        (count, 4) colours (for tests and tools; it waits for the GPU)."""
        seg = _read(self._pos, 2 * self.count, 4, np.float32)
        col = _read(self._col, 2 * self.count, 8, np.uint8)[:, :4]
        return seg.astype(np.float32), col.astype(np.uint8)

    def draw(self, limit: int | None = None) -> None:
        """Draw all segments, or the first ``limit`` of them (one call)."""
        count = _limited(self.count, limit)
        if count == 0:
            return
        with self._ctx.enabled(self._ctx.BLEND):
            self._geometry.render(self._program, vertices=2 * count)


class DiscBatch:
    """Antialiased filled discs and rings (circle outlines), each with its own colour."""

    def __init__(self, ctx: ArcadeContext, capacity: int = 1024) -> None:
        from arcade.gl import BufferDescription

        self._ctx = ctx
        self._program: Program = ctx.program(vertex_shader=_DISC_VS, fragment_shader=_DISC_FS)
        corners = ctx.buffer(data=array("f", [-1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0, -1.0]))
        self._disc = _Stream(ctx, 16, capacity)
        self._col = _Stream(ctx, 4, capacity)
        self._geometry: Geometry = ctx.geometry(
            [
                BufferDescription(corners, "2f", ["in_vert"]),
                BufferDescription(self._disc.buffer, "4f", ["in_disc"], instanced=True),
                BufferDescription(
                    self._col.buffer, "4f1", ["in_color"], normalized=["in_color"], instanced=True
                ),
            ],
            mode=ctx.TRIANGLE_STRIP,
        )
        self._parts = _Parts(4)
        self.count = 0

    def add(
        self, centres: ArrayLike, radius: ArrayLike, color: ArrayLike, ring: float = 0.0
    ) -> None:
        """Queue discs at (K, 2) centres with radius (scalar or (K,)); ``ring`` > 0: outlines
        that thick (world units)."""
        c = np.asarray(centres, dtype=np.float32).reshape(-1, 2)
        k = c.shape[0]
        rows = np.empty((k, 4), np.float32)
        rows[:, :2] = c
        rows[:, 2] = np.broadcast_to(np.asarray(radius, dtype=np.float32), (k,))
        rows[:, 3] = ring
        self._parts.add(rows, color)

    def commit(self) -> None:
        """Upload everything queued since the last commit."""
        g, c = self._parts.take()
        self._disc.write(g)
        self._col.write(c)
        self.count = int(g.shape[0])

    def uploaded(self) -> tuple[NDArray[np.float32], NDArray[np.uint8]]:
        """The last upload read back from the GPU: (count, 4) ``x, y, radius, ring`` rows and
        (count, 4) colours (for tests and tools; it waits for the GPU)."""
        rows = _read(self._disc, self.count, 4, np.float32)
        return rows.astype(np.float32), _read(self._col, self.count, 4, np.uint8).astype(np.uint8)

    def draw(self) -> None:
        """Draw all discs (one call)."""
        if self.count == 0:
            return
        with self._ctx.enabled(self._ctx.BLEND):
            self._geometry.render(self._program, vertices=4, instances=self.count)


class TriangleBatch:
    """Coloured triangles (three vertices each, a colour per vertex), drawn in one call."""

    def __init__(self, ctx: ArcadeContext, capacity: int = 1024) -> None:
        from arcade.gl import BufferDescription

        self._ctx = ctx
        self._program: Program = ctx.program(vertex_shader=_TRI_VS, fragment_shader=_FLAT_FS)
        self._pos = _Stream(ctx, 8, capacity)
        self._col = _Stream(ctx, 4, capacity)
        self._geometry: Geometry = ctx.geometry(
            [
                BufferDescription(self._pos.buffer, "2f", ["in_pos"]),
                BufferDescription(self._col.buffer, "4f1", ["in_color"], normalized=["in_color"]),
            ],
            mode=ctx.TRIANGLES,
        )
        self._parts = _Parts(2)
        self.count = 0

    def add(self, vertices: ArrayLike, color: ArrayLike) -> None:
        """Queue (3K, 2) triangle vertices, one colour or one (3K, 4) row per vertex."""
        self._parts.add(vertices, color)

    def commit(self) -> None:
        """Upload everything queued since the last commit."""
        g, c = self._parts.take()
        self._pos.write(g)
        self._col.write(c)
        self.count = int(g.shape[0]) - int(g.shape[0]) % 3

    def draw(self) -> None:
        """Draw all triangles (one call)."""
        if self.count == 0:
            return
        with self._ctx.enabled(self._ctx.BLEND):
            self._geometry.render(self._program, vertices=self.count)
