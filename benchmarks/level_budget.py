"""The cost of the worst level the loader accepts, one kind of excess at a time.

Run: ``python -m benchmarks.level_budget [--timeout S] [--only KIND ...] [--over]``. Each
level is written to a temporary folder and run as a user would, each command in its own
process: ``python -m game.level check``, ``python -m game simulate --seconds 1``, the same with
``--autopilot``, ``python -m game screenshot --seconds 0`` (headless) and the editor's model
opened with its world stepped five times. Each line gives the wall time and the process's peak
memory (``VmHWM``, read while it runs); a command past the timeout (or past 4 GiB, with
``--over``) is killed and shown as such. The budget these are held to is in docs/levels.md.
``--over`` runs issue 43's table instead: levels accepted before and far over the budget, each
of which must now be refused at once (exit 2).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from game.level.schema import (
    MAX_AGENTS,
    MAX_FLOW_CELLS,
    MAX_HIDE_WORK,
    MAX_OBJECTS,
    MAX_PATH_NODES,
    MAX_PATH_POINTS,
    MAX_ROCK_OVERLAPS,
    MAX_SPAWN_WALL_WORK,
    MAX_SPAWN_WORK,
    MAX_WALL_POINTS,
    MAX_WORLD_PX,
)

ROOT = Path(__file__).resolve().parent.parent
LEVELS_DIR = ROOT / "levels"
TILE = 32


def _prop(name: str, kind: str, value: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, "value": value}


def _map(w_px: int, h_px: int, objects: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "type": "map",
        "version": "1.8",
        "tiledversion": "1.8.2",
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "infinite": False,
        "width": w_px // TILE,
        "height": h_px // TILE,
        "tilewidth": TILE,
        "tileheight": TILE,
        "tilesets": [],
        "nextlayerid": 2,
        "nextobjectid": len(objects) + 10,
        "layers": [{"id": 1, "name": "objects", "type": "objectgroup", "objects": objects}],
    }


def _player(x: float, y: float) -> dict[str, Any]:
    return {"id": 1, "class": "player", "x": x, "y": y, "point": True, "name": ""}


def _exit(x: float, y: float) -> dict[str, Any]:
    return {"id": 2, "class": "exit", "x": x, "y": y, "width": 64, "height": 64, "name": ""}


def big_map() -> dict[str, Any]:
    """The largest world, nothing else in it."""
    side = MAX_WORLD_PX // TILE * TILE
    return _map(side, side, [_player(100, 100), _exit(side - 200, 200)])


def wall_points() -> dict[str, Any]:
    """Walls of as many points as allowed, zig-zagging across a 4,000 px map."""
    side = 4000
    walls = []
    per_wall = 1000
    for k in range(MAX_WALL_POINTS // per_wall):
        y0 = 300 + k * (side - 600) / (MAX_WALL_POINTS // per_wall)
        pts = [{"x": 10 + 3.5 * i, "y": (i % 2) * 8} for i in range(per_wall)]
        walls.append(
            {"id": 10 + k, "class": "wall", "x": 200, "y": side - y0, "polyline": pts, "name": ""}
        )
    return _map(side, side, [_player(60, 60), _exit(side - 200, 200), *walls])


def agents_on_a_long_path() -> dict[str, Any]:
    """Every agent allowed, enemies on one path of the most nodes allowed."""
    side = 20000
    n = MAX_PATH_POINTS
    pts = [
        {"x": 8000 * math.cos(2 * math.pi * i / n), "y": 8000 * math.sin(2 * math.pi * i / n)}
        for i in range(n)
    ]
    path = {"id": 3, "class": "path", "name": "ring", "x": side / 2, "y": side / 2, "polygon": pts}
    enemy = {
        "id": 4,
        "class": "enemy",
        "x": side / 2 + 8000,
        "y": side / 2,
        "point": True,
        "name": "",
        "properties": [_prop("path", "string", "ring"), _prop("count", "int", MAX_AGENTS - 1)],
    }
    return _map(side, side, [_player(100, 100), _exit(side - 200, 200), path, enemy])


def many_noise_regions() -> dict[str, Any]:
    """As many overlapping noise regions as the flow cells allow (32 px cells)."""
    side = 2048
    cells_each = (side // 32) ** 2
    count = MAX_FLOW_CELLS // cells_each
    flows = [
        {
            "id": 10 + k,
            "class": "flow",
            "x": 0,
            "y": 0,
            "width": side,
            "height": side,
            "name": "",
            "properties": [_prop("kind", "string", "noise"), _prop("seed", "int", k)],
        }
        for k in range(count)
    ]
    return _map(side, side, [_player(60, 60), _exit(side - 200, 200), *flows])


def fine_noise() -> dict[str, Any]:
    """One noise region of the most cells allowed, 2 px each."""
    side = int(math.sqrt(MAX_FLOW_CELLS)) * 2 // TILE * TILE
    flow = {
        "id": 10,
        "class": "flow",
        "x": 0,
        "y": 0,
        "width": side,
        "height": side,
        "name": "",
        "properties": [_prop("kind", "string", "noise"), _prop("cell", "float", 2.0)],
    }
    return _map(side, side, [_player(60, 60), _exit(side - 200, 200), flow])


def _rock(oid: int, x: float, y: float, r: float, dynamic: bool) -> dict[str, Any]:
    props = [_prop("dynamic", "bool", True)] if dynamic else []
    return {
        "id": oid,
        "class": "obstacle",
        "x": x - r,
        "y": y - r,
        "width": 2 * r,
        "height": 2 * r,
        "ellipse": True,
        "name": "",
        "properties": props,
    }


def _spawn(oid: int, cls: str, x: float, y: float, **props: Any) -> dict[str, Any]:
    kinds = {bool: "bool", int: "int", float: "float", str: "string"}
    return {
        "id": oid,
        "class": cls,
        "x": x,
        "y": y,
        "point": True,
        "name": "",
        "properties": [_prop(k, kinds[type(v)], v) for k, v in props.items()],
    }


def pushable_pile(count: int = 9_998) -> dict[str, Any]:
    """Issue 43: ``count`` pushable rocks on one spot (every pair overlaps)."""
    side = 4000
    rocks = [_rock(10 + k, 2000, 2000, 10, True) for k in range(count)]
    return _map(side, side, [_player(60, 60), _exit(side - 200, 200), *rocks])


def pushable_apart() -> dict[str, Any]:
    """Every pushable rock the objects allow, apart but for a pile at the overlap limit."""
    side = 4000
    pile = _pile_size(MAX_ROCK_OVERLAPS)
    rocks = [_rock(10 + k, 3000, 3000, 10, True) for k in range(pile)]
    n = MAX_OBJECTS - 2 - pile
    per_row = math.ceil(math.sqrt(n))
    rocks += [
        _rock(10 + pile + k, 300 + 25 * (k % per_row), 300 + 25 * (k // per_row), 10, True)
        for k in range(n)
    ]
    return _map(side, side, [_player(60, 60), _exit(side - 200, 200), *rocks])


def _pile_size(pairs: int) -> int:
    """The most rocks on one spot whose overlapping pairs stay within ``pairs``."""
    k = 1
    while (k + 1) * k // 2 <= pairs:
        k += 1
    return k


def point_spawn_pile(count: int = 9_998, separation: float = 24.0) -> dict[str, Any]:
    """Issue 43: ``count`` one-NPC point spawns on one spot."""
    side = 4000
    spawns = [_spawn(10 + k, "npc", 2000, 2000, separation=separation) for k in range(count)]
    return _map(side, side, [_player(60, 60), _exit(side - 200, 200), *spawns])


def hiders_among_rocks(
    rocks: int = 5_000, hiders: int = 4_999, enemies: int = 5_000
) -> dict[str, Any]:
    """Issue 43: hiders, the enemies they hide from and the rocks they hide behind."""
    side = 10_000
    per_row = math.ceil(math.sqrt(rocks))
    step = (side - 2000) / per_row
    objs = [
        _rock(10 + k, 1000 + step * (k % per_row), 1000 + step * (k // per_row), 10, False)
        for k in range(rocks)
    ]
    area = {
        "id": 5,
        "class": "npc",
        "x": 1000,
        "y": 1000,
        "width": side - 2000,
        "height": side - 2000,
        "name": "",
        "properties": [_prop("count", "int", hiders), _prop("role", "string", "hider")],
    }
    enemy = _spawn(6, "enemy", side / 2, side / 2, count=enemies)
    return _map(side, side, [_player(60, 60), _exit(side - 200, 200), area, enemy, *objs])


def walls_and_spawned_enemies(enemies: int = 9_999) -> dict[str, Any]:
    """Issue 43: the most wall points and enemies from one point spawn among them."""
    level = wall_points()
    level["width"] = level["height"] = 6000 // TILE  # room for the crowd beside the walls
    objects = level["layers"][0]["objects"]
    objects.append(_spawn(5, "enemy", 2000, 2000, count=enemies))
    return level


def drifting_paths(count: int = 149, nodes: int = MAX_PATH_POINTS) -> dict[str, Any]:
    """Issue 43: ``count`` drifting paths of ``nodes`` nodes each."""
    side = 4000
    paths = []
    for k in range(count):
        pts = [
            {
                "x": round(1500 * math.cos(2 * math.pi * i / nodes)),
                "y": round(1500 * math.sin(2 * math.pi * i / nodes)),
            }
            for i in range(nodes)
        ]
        paths.append(
            {
                "id": 10 + k,
                "class": "path",
                "name": f"p{k}",
                "x": side / 2,
                "y": side / 2,
                "polygon": pts,
                "properties": [_prop("drift", "float", 20.0)],
            }
        )
    return _map(side, side, [_player(60, 60), _exit(side - 200, 200), *paths])


def ignored_key(count: int = 10_000_000) -> dict[str, Any]:
    """Issue 43: a key the game ignores holding ``count`` empty objects."""
    level = _map(4000, 4000, [_player(60, 60), _exit(3800, 200)])
    level["notes"] = [{} for _ in range(count)]
    return level


def image_regions(
    folder: Path, regions: int = 900, images: int = 5, side: int = 4096
) -> dict[str, Any]:
    """Issue 43: ``regions`` image flow regions cycling ``images`` images of ``side`` px a side,
    written to ``folder`` (which must be under the game's levels/ or resources/)."""
    from PIL import Image

    ramp = bytes(range(256)) * (side // 256 + 1)
    for k in range(images):
        shade = Image.frombytes("L", (side, 1), ramp[k : k + side]).resize((side, side))
        shade.save(folder / f"flow{k}.png")
    side_px = 2048
    flows = [
        {
            "id": 10 + j,
            "class": "flow",
            "x": 0,
            "y": 0,
            "width": side_px,
            "height": side_px,
            "name": "",
            "properties": [
                _prop("kind", "string", "image"),
                _prop("image", "file", str(folder / f"flow{j % images}.png")),
                _prop("cell", "float", 256.0),
            ],
        }
        for j in range(regions)
    ]
    return _map(side_px, side_px, [_player(60, 60), _exit(side_px - 200, 200), *flows])


KINDS = {
    "big map": big_map,
    "wall points": wall_points,
    "agents x path nodes": agents_on_a_long_path,
    "noise regions": many_noise_regions,
    "fine noise": fine_noise,
    "pushable rocks": pushable_apart,
    "one-agent spawns": lambda: point_spawn_pile(math.isqrt(MAX_SPAWN_WORK)),
    "hiders x rocks": lambda: hiders_among_rocks(math.isqrt(MAX_HIDE_WORK // 100), 4_999, 99),
    "walls x spawned": lambda: walls_and_spawned_enemies(MAX_SPAWN_WALL_WORK // 19_980),
    "drifting paths": lambda: drifting_paths(MAX_PATH_NODES // MAX_PATH_POINTS),
}

#: Issue 43's table: levels the loader accepted before, far over the budget; each is refused
#: now, in one line naming the limit (the value is a word of that line).
OVER_BUDGET = {
    "pushable pile": (pushable_pile, "overlap"),
    "point spawn pile": (point_spawn_pile, "spawn"),
    "hiders x rocks": (hiders_among_rocks, "hid"),
    "walls x spawned": (walls_and_spawned_enemies, "wall"),
    "drifting paths": (drifting_paths, "JSON objects"),
    "ignored key": (ignored_key, "JSON"),
}

#: The editor opened headless: its model loads the level and the world it previews runs five
#: frames (the window itself is the screenshot's drawing).
EDITOR_MODEL = (
    "import sys; from game.editor import EditModel; from game.world import World; "
    "w = World(EditModel.open(sys.argv[1]).level); [w.step() for _ in range(5)]"
)

COMMANDS = {
    "check": ["-m", "game.level", "check"],
    "simulate 1 s": ["-m", "game", "simulate", "{level}", "--seconds", "1"],
    "autopilot 1 s": ["-m", "game", "simulate", "{level}", "--seconds", "1", "--autopilot"],
    "screenshot": ["-m", "game", "screenshot", "{level}", "--seconds", "0", "--out", "{png}"],
    "editor model": ["-c", EDITOR_MODEL, "{level}"],
}


def compact(level: dict[str, Any]) -> str:
    """A level as the smallest JSON text (the largest cases are near the file size limit)."""
    return json.dumps(level, separators=(",", ":"))


def _peak_mib(pid: int) -> float:
    """The process's peak resident memory so far (``VmHWM``), MiB; 0 when unknown.

    Not ``ru_maxrss``: Linux carries a process's peak across ``exec``, so a command started
    from a big process (a long pytest run) would report its parent's size.
    """
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0


def run(args: list[str], timeout: float, max_mib: float = math.inf) -> tuple[float, float, str]:
    """Wall seconds, peak MiB and "ok" / "exit N" / "killed" of one command (its peak memory
    read every 20 ms while it runs; killed past ``timeout`` s or ``max_mib``, so that a level
    far over the budget cannot take the machine down)."""
    env = {**os.environ, "ARCADE_HEADLESS": "1", "PYTHONPATH": str(ROOT)}
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env
    )
    deadline = t0 + timeout
    peak = 0.0
    while True:
        peak = max(peak, _peak_mib(proc.pid))
        pid, status = os.waitpid(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline or peak > max_mib:
            proc.kill()
            os.waitpid(proc.pid, 0)
            return time.perf_counter() - t0, peak, "killed"
        time.sleep(0.02)
    seconds = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    proc.returncode = code
    return seconds, peak, "ok" if code == 0 else f"exit {code}"


def _over_budget(tmp: Path, timeout: float) -> int:
    """Issue 43's table: check and simulate each level, which the loader now refuses (exit 2);
    the images of the image case go to a hidden folder under levels/, removed after."""
    images = Path(tempfile.mkdtemp(prefix=".level_budget_", dir=LEVELS_DIR))
    cases = {k: make for k, (make, _) in OVER_BUDGET.items()}
    cases["image regions"] = lambda: image_regions(images)
    try:
        for kind, make in cases.items():
            level = tmp / f"{kind.replace(' ', '_')}.tmj"
            level.write_text(compact(make()), encoding="utf-8")
            for name in ("check", "simulate 1 s"):
                argv = [a.format(level=level, png=tmp / "s.png") for a in COMMANDS[name]]
                if name == "check":
                    argv.append(str(level))
                seconds, mib, result = run(argv, timeout, 4096)
                print(f"{kind:>22} {name:>14} {seconds:>8.1f} {mib:>9,.0f} {result}", flush=True)
    finally:
        shutil.rmtree(images, ignore_errors=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--only", nargs="+", choices=sorted(KINDS), default=None)
    parser.add_argument(
        "--over", action="store_true", help="issue 43's levels instead: each must be refused"
    )
    args = parser.parse_args()
    print(f"{'level':>22} {'command':>14} {'seconds':>8} {'peak MiB':>9} result")
    with tempfile.TemporaryDirectory() as tmp:
        if args.over:
            return _over_budget(Path(tmp), args.timeout)
        for kind, make in KINDS.items():
            if args.only and kind not in args.only:
                continue
            level = Path(tmp) / f"{kind.replace(' ', '_')}.tmj"
            level.write_text(compact(make()), encoding="utf-8")
            png = Path(tmp) / "shot.png"
            for name, template in COMMANDS.items():
                argv = [a.format(level=level, png=png) for a in template]
                if name == "check":
                    argv.append(str(level))
                seconds, mib, result = run(argv, args.timeout)
                print(f"{kind:>22} {name:>14} {seconds:>8.1f} {mib:>9,.0f} {result}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
