"""Path following (seeds 000 and 001) for agents on any number of paths in one call.

Why one file: :class:`FollowPath`'s per-agent step (what a composite compiles), the record it
reads and the carrying of agents across path edits (:func:`edited_rows`, :meth:`Path.remap`)
share the same memory columns: they are kept side by side so that a change to one is seen
beside the others.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from . import _kern as kern
from . import _pathkern as pk
from ._checks import finite, non_negative, size
from ._jit import njit
from ._kern import hypot
from ._pathkern import P_CLOSED, P_LENGTH, P_LIVE, P_RADIUS, P_UID, P_VERSION, S_RADIUS, S_UX, S_UY
from .agents import UNSET, AgentGroup
from .base import DEFAULT_GAIN, Debug
from .checked import checks
from .composite import AgentCols, RowPart, row_function
from .debug import PathDebug, write
from .path import SEED_LOOKAHEAD, SEED_SPEED, SEED_TARGET_AHEAD, Path
from .paths import PathSet
from .records import Held, settings
from .vec import EPSILON, FloatArray

__all__ = ["FollowPath", "PathParam"]

IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]

_NO_ROWS = np.zeros(0)
_NO_DEBUG = np.zeros((0, 8))


class PathParam(NamedTuple):
    """Each agent's place on the paths of a :class:`FollowPath` (gdx-ai's ``PathParam``, one
    array per field, one row per agent): the group's state columns themselves, so writing
    them sets what the behaviour reads. Their values follow the agents through ``add``,
    ``remove``, ``take`` and ``put``; ``add`` and ``remove`` make new arrays, so get them
    again with :meth:`FollowPath.param` after those (as any column of the group)."""

    path_index: FloatArray
    """(N,) the slot of each agent's path in the behaviour's :class:`PathSet` (-1: none, no
    force, memory kept); unused with one :class:`Path`."""
    direction: FloatArray
    """(N,) +1 to walk the path forwards, -1 backwards, 0 (or NaN) the behaviour's
    :attr:`~FollowPath.reverse`. (It replaces the ``"<key>.reverse"`` column of 0 and 1 that
    earlier versions read: a group that has that column and no direction is refused with a
    ValueError that says so.)"""
    nearest: FloatArray
    """(N,) arc length of the nearest point found last step (NaN: none yet)."""
    progress: FloatArray
    """(N,) the smoothed progress along the path, px of arc length (NaN: none yet)."""


class FollowRecord(NamedTuple):
    """:class:`FollowPath`'s parameters and its agents' memory for one call."""

    pf: FloatArray
    """The paths' packed geometry (:meth:`PathSet.geometry`): a row per path slot."""
    pi: IntArray
    """Its integers."""
    sf: FloatArray
    """A row per segment."""
    real: IntArray
    """Which segments are real."""
    index_col: FloatArray
    """(N,) each agent's path slot, or (0,) for one :class:`Path` followed by all."""
    direction: FloatArray
    """(N,) each agent's direction (+1, -1, 0: the default), or (0,)."""
    default_sign: float
    """+1 forwards, -1 with :attr:`FollowPath.reverse`."""
    dt: float
    """The step, s."""
    lookahead: float
    """The look-ahead: a time (s) or, with ``use_distance``, a distance (px)."""
    use_distance: bool
    """Whether ``lookahead`` is a distance."""
    target_ahead: float
    """px."""
    target_ahead_time: float
    """s."""
    search_window: float
    """px; negative: from the path's radius and the look-ahead."""
    cruise_fraction: float
    """Steer when slower than this fraction of max speed along the path."""
    arrive_at_end: bool
    """Stop at the end of an open path."""
    slowing_radius: float
    """px."""
    brake_fraction: float
    """Fraction of max force budgeted for braking."""
    progress_rate: float
    """How fast progress follows the nearest point, x the step's travel."""
    gain: float
    """1/s."""
    nearest: FloatArray
    """(N,) memory: the nearest point's arc length."""
    progress: FloatArray
    """(N,) memory: the smoothed progress."""
    version: FloatArray
    """(N,) memory: the path version each agent last stepped on."""
    uid: FloatArray
    """(N,) memory: the path object each agent last stepped on."""
    dbg: FloatArray
    """(N, 8) debug rows when asked, else (0, 8)."""
    carried: FloatArray
    """(N,) nonzero for an agent whose place was carried across an edit of its path and which
    snaps to it at its next step: the state column ``"<key>.carried"`` (an agent a mask skips
    keeps it until it runs)."""


@row_function
def follow_agent(i: int, a: AgentCols, r: FollowRecord, second: bool) -> tuple[float, float, bool]:
    """One step of path following for agent ``i`` (see :class:`FollowPath`): its force, and
    True (with no force and no step) when its path was edited since its last step while it
    kept a place on it, unless ``second`` (its place was carried across the edit)."""
    p = -1
    if r.index_col.shape[0] == 0:
        p = 0
    else:
        v = r.index_col[i]
        if v >= 0.0 and v < r.pf.shape[0]:
            p = int(v)
            if not r.pf[p, P_LIVE] > 0.5:
                p = -1
    if p < 0:
        if r.dbg.shape[0] > 0:
            r.dbg[i, 7] = 0.0
        return 0.0, 0.0, False
    # Recall this agent's place: forget it on another path object; snap progress to
    # the nearest point after an edit or when it has none.
    must_snap = True
    if not second:
        if r.uid[i] != r.pf[p, P_UID]:
            r.nearest[i] = math.nan
            r.progress[i] = math.nan
        must_snap = r.version[i] != r.pf[p, P_VERSION] or not math.isfinite(r.progress[i])
        if must_snap and r.uid[i] == r.pf[p, P_UID] and math.isfinite(r.nearest[i]):
            if r.dbg.shape[0] > 0:
                r.dbg[i, 7] = 0.0
            return 0.0, 0.0, True
    big_l = r.pf[p, P_LENGTH]
    closed = r.pf[p, P_CLOSED] > 0.5
    sign = r.default_sign
    if r.direction.shape[0] > 0:
        d = r.direction[i]
        if d < 0.0:
            sign = -1.0
        elif d > 0.0:
            sign = 1.0
    px, py = a.pos[i, 0], a.pos[i, 1]
    vx, vy = a.vel[i, 0], a.vel[i, 1]
    good = True
    if not (math.isfinite(px) and math.isfinite(py)):
        px, py, good = 0.0, 0.0, False
    if not (math.isfinite(vx) and math.isfinite(vy)):
        vx, vy, good = 0.0, 0.0, False
    ms = a.max_speed[i]
    mf = a.max_force[i]
    speed = hypot(vx, vy)
    # The seeds' future position (a time ahead, or their fixed distance ahead).
    if r.use_distance:
        reach = r.lookahead
        ux, uy, _ = kern.unit(vx, vy)
        fx, fy = px + ux * r.lookahead, py + uy * r.lookahead
    else:
        reach = speed * r.lookahead
        fx, fy = px + vx * r.lookahead, py + vy * r.lookahead
    hint = r.nearest[i]
    if not math.isfinite(hint):
        # A new agent (or one whose place was lost) searches its whole path once.
        start, count = pk.band(r.pf, r.pi, r.sf, p, math.nan, 0.0)
        hint = pk.nearest(r.pf, r.pi, r.sf, r.real, p, start, count, px, py)[1]
        must_snap = True
    if r.search_window < 0.0:
        window = max(3.0 * r.pf[p, P_RADIUS], 2.0 * reach)
        window += speed * abs(r.dt) + 1.0
    else:
        window = r.search_window
    # The normal points of the position and the future position, searched in one band.
    start, count = pk.band(r.pf, r.pi, r.sf, p, hint, window)
    g_pos, s_pos, _, _ = pk.nearest(r.pf, r.pi, r.sf, r.real, p, start, count, px, py)
    g_fut, s_fut, nx, ny = pk.nearest(r.pf, r.pi, r.sf, r.real, p, start, count, fx, fy)
    d_fut = hypot(fx - nx, fy - ny)
    ahead = r.target_ahead + speed * r.target_ahead_time
    tx, ty = pk.point_at(r.pf, r.pi, r.sf, p, s_fut + sign * ahead)
    radius = r.sf[g_fut, S_RADIUS]
    strayed = d_fut > radius
    along = vx * r.sf[g_pos, S_UX] + vy * r.sf[g_pos, S_UY]
    stalled = along * sign <= r.cruise_fraction * ms
    steering = strayed or stalled
    fo_x, fo_y = 0.0, 0.0
    if steering:
        dx, dy = kern.set_length(tx - px, ty - py, ms)
        fo_x, fo_y = kern.steer(dx, dy, vx, vy, r.gain, mf)
    # Arriving at the end of an open path (or at a path that is a point).
    point = big_l <= EPSILON
    if (not closed and r.arrive_at_end) or point:
        end_s = big_l if sign > 0.0 else 0.0
        remaining = 0.0 if point else sign * (end_s - s_pos)
        if remaining < r.slowing_radius:
            ex, ey = pk.point_at(r.pf, r.pi, r.sf, p, end_s)
            if point:
                ax, ay = ex, ey
                nx, ny = tx, ty
            else:
                ax, ay = tx, ty
            to_go = max(remaining, hypot(ex - px, ey - py))
            fo_x, fo_y = _arrive(
                ms, mf, px, py, vx, vy, ax, ay, to_go, r.slowing_radius, r.brake_fraction, r.gain
            )
            steering = True
    # Progress moves toward the nearest point by at most progress_rate x the step.
    if not math.isfinite(r.progress_rate):
        new_progress = s_pos
    else:
        old = s_pos if must_snap else r.progress[i]
        delta = s_pos - old
        if closed and big_l > EPSILON:
            half = 0.5 * big_l
            delta = (delta + half) % big_l - half
        limit = r.progress_rate * (speed * abs(r.dt))
        new_progress = pk.wrap_s(old + pk.clampf(delta, -limit, limit), big_l, closed)
    if good:
        r.nearest[i] = s_pos
        r.progress[i] = new_progress
    else:
        fo_x, fo_y = 0.0, 0.0
        r.nearest[i] = math.nan
        r.progress[i] = math.nan
    r.version[i] = r.pf[p, P_VERSION]
    r.uid[i] = r.pf[p, P_UID]
    if r.dbg.shape[0] > 0:
        r.dbg[i, 0], r.dbg[i, 1] = fx, fy
        r.dbg[i, 2], r.dbg[i, 3] = nx, ny
        r.dbg[i, 4], r.dbg[i, 5] = tx, ty
        r.dbg[i, 6] = radius
        r.dbg[i, 7] = 1.0 if (steering and good) else 0.0
    return fo_x, fo_y, False


@row_function
def follow_row(i: int, a: AgentCols, r: FollowRecord, buf: FloatArray) -> tuple[float, float]:
    """Agent ``i``'s path-following force in a composite (edits were carried over in
    :meth:`FollowPath.bind`)."""
    carried = r.carried[i] > 0.0
    fx, fy, _ = follow_agent(i, a, r, carried)
    if carried:
        r.carried[i] = 0.0
    return fx, fy


def path_or_set(name: str, value: Any) -> Path | PathSet:
    """A :class:`~steering.Path` or a :class:`~steering.PathSet`; TypeError otherwise."""
    if not isinstance(value, Path | PathSet):
        raise TypeError(f"{name}: expected a Path or a PathSet, got {type(value).__name__}")
    return value


def optional_size(name: str, value: Any) -> float | None:
    """None, or a number >= 0 (inf allowed)."""
    return None if value is None else non_negative(name, value, allow_inf=True)


def optional_non_negative(name: str, value: Any) -> float | None:
    """None, or a finite number >= 0."""
    return None if value is None else non_negative(name, value)


def key_name(name: str, value: Any) -> str:
    """A non-empty str."""
    if not isinstance(value, str) or not value:
        raise TypeError(f"{name}: expected a non-empty str, got {value!r}")
    return value


@dataclass
class FollowPath(RowPart):
    """Reynolds' path following (seeds 000/001) for many agents on many paths, with
    per-agent progress.

    Each step, per agent: predict ``future = pos + vel * lookahead_time``; find its normal
    point on its path (nearest point, segment ends clamped), searching only the segments
    within ``search_window`` of the agent's own place on the path; put the target
    ``target_ahead + speed * target_ahead_time`` further along the path (the seeds add 25 px
    along the segment; here the distance is measured along the path, so the target follows
    corners); and seek the target only when the future position is farther from the path
    than the radius of the segment its normal point lies on (paths have a radius per
    segment, as OpenSteer's; one radius for all is the seeds' case).

    ``path`` is one :class:`Path` (every agent follows it) or a :class:`PathSet`: then each
    agent follows the path in its slot of :meth:`param` ``.path_index`` (-1: no path, no force,
    its memory kept), and ``.direction`` (+1 forwards, -1 backwards) overrides
    :attr:`reverse` per agent where it is not 0. All paths are served by one compiled loop
    over the agents (each agent searches only its own path's segments near its place).

    Defaults reproduce the seeds at their 2 px/frame (120 px/s): future 25 px ahead
    (25/120 s x 120 px/s) and target 25 px past the normal point (10 px + 0.125 s x
    120 px/s); both grow with speed. Seed 000's multi-segment example predicts 50 px: use
    ``lookahead_time=50/120``.

    Better than the seeds:

    * An agent whose speed along the path is at most ``cruise_fraction * max_speed``
      (stopped, slowed down by other behaviours, or heading the wrong way) also seeks the
      target, so a stopped agent gets going and a slowed one gets back up to speed.
      ``cruise_fraction = 0`` keeps the seeds' rule for every agent that moves forward.
    * Open paths: with ``arrive_at_end`` the agent slows within ``slowing_radius`` of arc
      length from the end (the first node in reverse) and stops on the end node without
      overshoot (desired speed capped by distance and braking ability, gain raised to
      critical damping, as in :class:`~steering.basic.Arrive`).
    * Per-agent memory lives in agent state columns, never on the path:
      ``"<key>.nearest"`` (arc length of the agent's nearest point, the center of next
      step's search), ``"<key>.progress"`` (the same, rate-limited to ``progress_rate`` x
      speed x dt per step, so it advances smoothly where the nearest point jumps inside a
      sharp corner), ``"<key>.version"`` and ``"<key>.uid"`` (which path and which edit they
      refer to). Read progress with :meth:`progress` and :meth:`nearest`; :meth:`forget`
      makes agents search their whole path again (after a teleport). After an edit the
      nearest point is carried across (:meth:`Path.remap`) and refined by the windowed
      search; a drifting path (:meth:`Path.drift_nodes`) needs no remap.
    * A degenerate path (all nodes equal) is a point: agents arrive at it.

    Where it fails: a ``search_window`` shorter than a step's travel loses the path (the
    default grows with speed); a path that comes back within the window of arc length (a
    loop smaller than about ``2 * search_window``) can still capture the search; corners
    sharper than an agent's turning circle are cut, as in the seeds; without
    ``arrive_at_end`` agents circle the end node of an open path.

    Debug keys (prefix ``key``): ``future``, ``normal``, ``target`` (N, 2), ``steering``
    (N,) bool, ``progress`` (N,), ``radius`` (N,) the radius each agent's future position
    was held to, its normal point's segment's (NaN without a path).
    """

    ROW = follow_row
    ROW_RECORD = FollowRecord

    path: Path | PathSet
    lookahead_time: float = SEED_LOOKAHEAD / SEED_SPEED
    target_ahead: float = 10.0
    target_ahead_time: float = (SEED_TARGET_AHEAD - 10.0) / SEED_SPEED
    reverse: bool = False
    arrive_at_end: bool = True
    slowing_radius: float = 100.0
    cruise_fraction: float = 0.9
    #: Half-width (px of arc length) of the search around each agent's place; None: the
    #: larger of 3 x the path's largest radius and twice the lookahead distance, plus a
    #: step's travel.
    search_window: float | None = None
    #: Progress moves at most this many times the agent's step (speed x dt) per step;
    #: ``math.inf`` makes progress the exact nearest point.
    progress_rate: float = 1.5
    gain: float = DEFAULT_GAIN
    key: str = "path"
    #: Fraction of max force budgeted for braking at the end of an open path.
    brake_fraction: float = 0.8
    #: The seeds' look-ahead, a distance: ``future = pos + unit(vel) * lookahead_distance``
    #: (px) at any speed, instead of :attr:`lookahead_time`. None: the time is used.
    lookahead_distance: float | None = None
    _single: tuple[Path, PathSet] | None = field(default=None, init=False, repr=False)

    CHECKS = checks(
        "FollowPath",
        path=path_or_set,
        search_window=optional_size,
        key=key_name,
        lookahead_distance=optional_non_negative,
        lookahead_time=finite,
        target_ahead=finite,
        target_ahead_time=finite,
        slowing_radius=non_negative,
        cruise_fraction=finite,
        progress_rate=size,
        gain=finite,
        brake_fraction=non_negative,
    )

    @property
    def paths(self) -> PathSet:
        """The registry this behaviour follows (a one-path registry for a single path)."""
        if isinstance(self.path, PathSet):
            return self.path
        if self._single is None or self._single[0] is not self.path:
            self._single = (self.path, PathSet([("path", self.path)]))
        return self._single[1]

    # -- public progress -----------------------------------------------------------------------

    def param(self, agents: AgentGroup) -> PathParam:
        """Each agent's path, direction and place (:class:`PathParam`): views of ``agents``'
        state columns ``"<key>.index"`` (made with -1: no path), ``"<key>.direction"`` (0),
        ``"<key>.nearest"`` and ``"<key>.progress"`` (NaN)."""
        names = _column_names(self.key)
        return PathParam(
            agents.column(names[0], fill=-1.0),
            agents.column(names[1], fill=0.0),
            self.nearest(agents),
            self.progress(agents),
        )

    def progress(self, agents: AgentGroup) -> FloatArray:
        """(N,) each agent's smoothed progress (arc length along its path; NaN: none yet)."""
        return agents.column(f"{self.key}.progress", fill=UNSET)

    def nearest(self, agents: AgentGroup) -> FloatArray:
        """(N,) arc length of each agent's nearest point found last step (NaN: none yet)."""
        return agents.column(f"{self.key}.nearest", fill=UNSET)

    def forget(self, agents: AgentGroup, rows: IntArray | BoolArray) -> None:
        """Make agents ``rows`` search their whole path afresh at their next step."""
        self.nearest(agents)[rows] = UNSET
        self.progress(agents)[rows] = UNSET

    # -- the behaviour -------------------------------------------------------------------------

    def bind(self, agents: AgentGroup, dt: float, debug: bool) -> FollowRecord:
        """This call's record; agents whose path was edited since their last step have their
        places carried across the edit first (:meth:`Path.remap`), so the loop steps all.
        Without debug output, the last record is kept while the paths' geometry (moved in
        place by a drift, made anew by an edit), the group's columns and this behaviour's
        settings are the same objects."""
        if debug:
            return self._bind(agents, dt, debug)
        held = self.__dict__.get("_held")
        if held is None:
            held = self.__dict__["_held"] = Held()
        else:
            record = held.get(self._stamp(agents), dt)
            if record is not None:
                return record
        record = self._bind(agents, dt, debug)  # may make columns: the stamp after it
        return held.put(self._stamp(agents), dt, record)

    def kept(self, agents: AgentGroup, record: FollowRecord) -> bool:
        """The record holds while the paths' geometry is the same arrays (a drift moves the
        nodes in them in place; an edit makes new ones, and the record is made again, carrying
        the agents across it); a replay's other checks cover the group and the settings."""
        held = self.__dict__.get("_held")  # none yet: only called for debug output so far
        return held is not None and record is held.record and held.key[0] is self.paths.geometry()

    def _stamp(self, agents: AgentGroup) -> tuple[Any, ...]:
        """What the record is made from: the paths' geometry, the group, its columns, this
        behaviour's settings."""
        state = agents.state
        return (
            self.paths.geometry(),
            agents,
            agents.pos,
            agents.vel,
            agents.max_speed,
            agents.max_force,
            *map(state.get, _column_names(self.key)),
            state.get(f"{self.key}.carried"),
            *settings(self),
        )

    def _bind(self, agents: AgentGroup, dt: float, debug: bool) -> FollowRecord:
        dbg = np.full((agents.n, 8), np.nan) if debug else _NO_DEBUG
        r = self._record(agents, dt, dbg)
        flags = np.zeros(agents.n, dtype=np.uint8)
        if edited_rows(r.pf, r.index_col, r.nearest, r.progress, r.version, r.uid, flags):
            # Carried once: their version is the path's now (a call that does not step them,
            # masked out, or a second copy of this behaviour in the tree, finds nothing to
            # carry), and they snap at their next step.
            self._remap(self.paths, r.index_col, flags, r.nearest, r.version)
            rows = np.flatnonzero(flags == _EDITED)
            slots = r.index_col[rows].astype(np.intp) if r.index_col.shape[0] else 0
            r.version[rows] = r.pf[slots, P_VERSION]
            r.carried[rows] = 1.0
        return r

    def report(self, agents: AgentGroup, record: FollowRecord, debug: Debug) -> None:
        """Write :class:`~steering.debug.PathDebug` under :attr:`key`."""
        dbg = record.dbg
        out = PathDebug(
            future=dbg[:, 0:2].copy(),
            normal=dbg[:, 2:4].copy(),
            target=dbg[:, 4:6].copy(),
            radius=dbg[:, 6].copy(),
            steering=dbg[:, 7] > 0.5,
            progress=record.progress.copy(),
        )
        write(out, debug, self.key)

    def _record(self, agents: AgentGroup, dt: float, dbg: FloatArray) -> FollowRecord:
        """A record made afresh, with debug rows ``dbg``, before any agent is carried across
        an edit; the memory columns are made here when the group has none."""
        n = agents.n
        geo = self.paths.geometry()
        names = _column_names(self.key)
        state = agents.state
        index_col = state.get(names[0])
        if not isinstance(self.path, PathSet):
            index_col = _NO_ROWS  # one Path: every agent follows slot 0, whatever the column
        elif index_col is None:
            index_col = np.full(n, -1.0)  # a PathSet without slots: nobody follows
        direction = state.get(names[1])
        if direction is None and f"{self.key}.reverse" in state:
            raise ValueError(
                f"FollowPath: the state column '{self.key}.reverse' is no longer read; write "
                f"each agent's direction into FollowPath.param(agents).direction (+1 forwards, "
                f"-1 backwards)"
            )
        window = -1.0 if self.search_window is None else float(self.search_window)
        distance = self.lookahead_distance
        lookahead = float(self.lookahead_time) if distance is None else float(distance)
        nearest = _unset_column(agents, names[2])
        progress = _unset_column(agents, names[3])
        version = _unset_column(agents, names[4])
        uid = _unset_column(agents, names[5])
        return FollowRecord(
            pf=geo.pf,
            pi=geo.pi,
            sf=geo.sf,
            real=geo.real,
            index_col=index_col,
            direction=_NO_ROWS if direction is None else direction,
            default_sign=-1.0 if self.reverse else 1.0,
            dt=float(dt),
            lookahead=lookahead,
            use_distance=distance is not None,
            target_ahead=float(self.target_ahead),
            target_ahead_time=float(self.target_ahead_time),
            search_window=window,
            cruise_fraction=float(self.cruise_fraction),
            arrive_at_end=bool(self.arrive_at_end),
            slowing_radius=float(self.slowing_radius),
            brake_fraction=float(self.brake_fraction),
            progress_rate=float(self.progress_rate),
            gain=float(self.gain),
            nearest=nearest,
            progress=progress,
            version=version,
            uid=uid,
            dbg=dbg,
            carried=agents.column(f"{self.key}.carried", fill=0.0),
        )

    @staticmethod
    def _remap(
        ps: PathSet,
        index_col: FloatArray,
        flags: NDArray[np.uint8],
        nearest: FloatArray,
        version: FloatArray,
    ) -> None:
        """Carry the nearest points of the agents flagged :data:`_EDITED` across the edits of
        their path (:meth:`Path.remap`), one batch per path and version seen."""
        rows = np.flatnonzero(flags == _EDITED)
        slot = index_col[rows].astype(np.intp) if index_col.shape[0] else np.zeros_like(rows)
        seen = version[rows]
        for p, ver in {(int(i), int(v)) for i, v in zip(slot, seen, strict=True)}:
            pick = rows[(slot == p) & (seen == ver)]
            path = ps.at(p)
            nearest[pick] = UNSET if path is None else path.remap(nearest[pick], ver)


#: A row's flag from :func:`edited_rows`: its path was edited since its last step and its
#: nearest point must be carried across the edit before it can step.
_EDITED = 2


@functools.lru_cache(maxsize=64)
def _column_names(key: str) -> tuple[str, str, str, str, str, str]:
    """The state columns of behaviour ``key``: index, direction, nearest, progress, version,
    uid."""
    return (
        f"{key}.index",
        f"{key}.direction",
        f"{key}.nearest",
        f"{key}.progress",
        f"{key}.version",
        f"{key}.uid",
    )


def _unset_column(agents: AgentGroup, name: str) -> FloatArray:
    """``agents.column(name, fill=UNSET)``, without its checks when the column exists."""
    col = agents.state.get(name)
    if col is not None and col.shape == (agents.n,):
        return col
    return agents.column(name, fill=UNSET)


@njit
def _arrive(
    max_speed: float,
    max_force: float,
    px: float,
    py: float,
    vx: float,
    vy: float,
    tx: float,
    ty: float,
    to_go: float,
    slowing_radius: float,
    brake_fraction: float,
    gain: float,
) -> tuple[float, float]:
    """Arrive-style force: head for (tx, ty) at a speed that lets the agent stop within
    ``to_go`` (as :class:`~steering.basic.Arrive`)."""
    slow = max(slowing_radius, 1e-6)
    speed = min(max_speed, max_speed * to_go / slow)
    brake = max(brake_fraction * max_force * to_go, 0.0)
    speed = min(speed, math.sqrt(2.0 * brake))
    dx, dy = kern.set_length(tx - px, ty - py, speed)
    return kern.steer(dx, dy, vx, vy, max(gain, 4.0 * max_speed / slow), max_force)


@njit
def edited_rows(
    pf: FloatArray,
    index_col: FloatArray,
    nearest: FloatArray,
    progress: FloatArray,
    version: FloatArray,
    uid: FloatArray,
    flags: NDArray[np.uint8],
) -> int:
    """Flag :data:`_EDITED` (and count) the agents whose path was edited since their last
    step while they kept a place on it: what :func:`follow_agent` would refuse to step."""
    edited = 0
    single = index_col.shape[0] == 0
    for i in range(flags.shape[0]):
        flags[i] = 0
        p = 0
        if not single:
            v = index_col[i]
            if not (v >= 0.0 and v < pf.shape[0]):
                continue
            p = int(v)
            if not pf[p, P_LIVE] > 0.5:
                continue
        if uid[i] != pf[p, P_UID] or not math.isfinite(nearest[i]):
            continue
        if version[i] != pf[p, P_VERSION] or not math.isfinite(progress[i]):
            flags[i] = _EDITED
            edited += 1
    return edited
