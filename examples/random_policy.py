"""A random policy on the Gymnasium environment: how often pressing random keys escapes, is
caught, or runs out of time (the baseline a trained policy must beat).

Run: ``python examples/random_policy.py [LEVEL ...] [--episodes 20] [--seed 0]
[--time-limit 120]`` (default levels 1 and 8). Needs the ``env`` extra
(``pip install -e '.[env]'``). Prints one line a level: the rates, the mean return and the
mean episode length in simulated seconds.
"""

from __future__ import annotations

import argparse

import numpy as np

from game.env import StealthEnv


def baseline(level: str, episodes: int, seed: int, time_limit: float) -> dict[str, float]:
    """Rates of each outcome over ``episodes`` random episodes (seeds ``seed``, ``seed + 1``,
    ...), their mean return and mean length (s)."""
    env = StealthEnv(level, time_limit=time_limit)
    env.action_space.seed(seed)
    counts = {"won": 0, "caught": 0, "truncated": 0}
    returns, lengths = [], []
    for episode in range(episodes):
        env.reset(seed=seed + episode)
        total = 0.0
        while True:
            _, reward, terminated, truncated, info = env.step(env.action_space.sample())
            total += float(reward)
            if terminated or truncated:
                break
        counts[info["outcome"] if terminated else "truncated"] += 1
        returns.append(total)
        lengths.append(info["time"])
    env.close()
    rates = {name: n / episodes for name, n in counts.items()}
    return {**rates, "return": float(np.mean(returns)), "seconds": float(np.mean(lengths))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("levels", nargs="*", default=["01_patrol", "08_sentries"])
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--time-limit", type=float, default=120.0)
    args = parser.parse_args()
    for level in args.levels:
        r = baseline(level, args.episodes, args.seed, args.time_limit)
        print(
            f"{level}: won {r['won']:.2f}, caught {r['caught']:.2f}, "
            f"truncated {r['truncated']:.2f}, mean return {r['return']:+.3f}, "
            f"mean length {r['seconds']:.1f} s ({args.episodes} episodes)"
        )


if __name__ == "__main__":
    main()
