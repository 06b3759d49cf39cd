"""Make gcgtools' built-in win model by self-play of its own static player.

Each game is played by gcgtools' static player for both sides (the move with the highest
static equity every turn: score plus the CSW21 leave value, going out valued with the
opponent's rack once the bag is empty) on the standard board with English tiles and the
ENABLE lexicon, under standard rules (six scoreless turns end the game). Before every
turn the script records, for the player to move, the tiles they cannot see (bag plus the
opponent's rack), the spread (their score minus the opponent's) and, when the game is
over, its result for them (1 win, 0.5 draw, 0 loss).

The model fitted (maximum likelihood, numpy only) is a logistic in the spread::

    P(win) = 1 / (1 + exp(-(spread + m(u)) / s(u)))
    m(u) = m0 + m1 * u            (what being on turn is worth, in points)
    s(u) = sqrt(s0^2 + s1^2 * u)  (how far the spread still moves: its variance grows
                                   with the tiles still to be played)

with ``u`` the unseen tiles; draws count half a win in the likelihood. Every fifth game
(game index 4, 9, 14, ...) is held out: the parameters come from the other games and the
log-loss and Brier score written with them are measured on the held-out positions.

Games are seeded one by one from ``--seed`` and the game index, so the same seed gives
the same games with any ``--jobs``. Run (about 0.1 s a game on one core here)::

    python tools/selfplay_winpct.py --games 6000 --seed 19 \\
        [--lexicon ENABLE.kwg] [--leaves CSW21.klv2] [--jobs 1] \\
        [--samples samples.csv] [--out gcgtools/analysis/winpct_model.json]

``--fit-only samples.csv`` fits again from saved samples without playing (give the same
``--seed``; ``--made-by MODEL`` keeps the games' timing from the model they made).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import random
import sys
import time
from collections.abc import Iterator
from multiprocessing import Pool
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gcgtools.analysis.playout import play_best, start_game  # noqa: E402
from gcgtools.lexicon import load_leaves, load_lexicon  # noqa: E402
from gcgtools.rules.rulesets import DEFAULT_RULES  # noqa: E402
from gcgtools.sources.atomic import write_atomic  # noqa: E402

HOLDOUT_EVERY = 5
#: (game, unseen, spread, result) per position
Sample = tuple[int, int, int, float]

_WORKER: dict[str, object] = {}


def _data_dir() -> Path:
    env = os.environ.get("GCGTOOLS_DATA")
    return Path(env) if env else ROOT.parent / "shared" / "data"


def _init(lexicon: str, leaves: str) -> None:
    _WORKER["lexicon"] = load_lexicon(lexicon, DEFAULT_RULES.tiles)
    _WORKER["leaves"] = load_leaves(leaves, DEFAULT_RULES.tiles)


def play_game(args: tuple[int, int]) -> list[Sample]:
    """One self-played game: the samples of every turn (see the module docstring)."""
    seed, game = args
    rng = random.Random(f"gcgtools-selfplay:{seed}:{game}")
    lexicon, leaves = _WORKER["lexicon"], _WORKER["leaves"]
    state = start_game(DEFAULT_RULES, rng, first=game % 2)
    turns: list[tuple[int, int, int]] = []
    while not state.over and len(turns) < 200:
        p = state.to_move
        turns.append((p, state.unseen(p), state.spread(p)))
        state, _ = play_best(state, lexicon, leaves, rng)  # type: ignore[arg-type]
    out = []
    for p, unseen, spread in turns:
        final = state.spread(p)
        result = 1.0 if final > 0 else 0.5 if final == 0 else 0.0
        out.append((game, unseen, spread, result))
    return out


def play_games(n: int, seed: int, lexicon: str, leaves: str, jobs: int) -> Iterator[Sample]:
    tasks = [(seed, g) for g in range(n)]
    if jobs <= 1:
        _init(lexicon, leaves)
        for k, t in enumerate(tasks):
            yield from play_game(t)
            if (k + 1) % 100 == 0:
                print(f"{k + 1} games", file=sys.stderr, flush=True)
        return
    with Pool(jobs, initializer=_init, initargs=(lexicon, leaves)) as pool:
        for k, rows in enumerate(pool.imap(play_game, tasks, chunksize=8)):
            yield from rows
            if (k + 1) % 100 == 0:
                print(f"{k + 1} games", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------- the fit
def probability(theta: np.ndarray, u: np.ndarray, spread: np.ndarray) -> np.ndarray:
    m0, m1, ls0, ls1 = theta
    scale = np.sqrt(np.exp(2 * ls0) + np.exp(2 * ls1) * u)
    z = (spread + m0 + m1 * u) / scale
    return 1.0 / (1.0 + np.exp(-np.clip(z, -60, 60)))


def log_loss(theta: np.ndarray, u: np.ndarray, s: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(probability(theta, u, s), 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def _gradient(f, theta: np.ndarray, h: float = 1e-5) -> np.ndarray:  # noqa: ANN001
    g = np.zeros_like(theta)
    for i in range(len(theta)):
        e = np.zeros_like(theta)
        e[i] = h
        g[i] = (f(theta + e) - f(theta - e)) / (2 * h)
    return g


def fit(u: np.ndarray, s: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Maximum likelihood by Newton's method with a line search (derivatives by central
    differences: four parameters, so this is quick)."""

    def f(t: np.ndarray) -> float:
        return log_loss(t, u, s, y)

    theta = np.array([10.0, 0.0, np.log(20.0), np.log(8.0)])
    for _ in range(100):
        g = _gradient(f, theta)
        hess = np.zeros((4, 4))
        for i in range(4):
            e = np.zeros(4)
            e[i] = 1e-4
            hess[i] = (_gradient(f, theta + e) - _gradient(f, theta - e)) / 2e-4
        hess = (hess + hess.T) / 2 + np.eye(4) * 1e-9
        try:
            step = -np.linalg.solve(hess, g)
        except np.linalg.LinAlgError:
            step = -g
        if float(step @ g) >= 0:  # not a descent direction: fall back to the gradient
            step = -g
        base, t = f(theta), 1.0
        while t > 1e-8 and f(theta + t * step) > base:
            t /= 2
        theta = theta + t * step
        if np.max(np.abs(t * step)) < 1e-7:
            break
    return theta


def brier(theta: np.ndarray, u: np.ndarray, s: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean((probability(theta, u, s) - y) ** 2))


def by_unseen(theta: np.ndarray, u: np.ndarray, s: np.ndarray, y: np.ndarray) -> list:
    """Held-out positions in bands of unseen tiles: count, log-loss, Brier score."""
    rows = []
    for lo, hi in ((1, 7), (8, 14), (15, 30), (31, 60), (61, 93)):
        m = (u >= lo) & (u <= hi)
        if m.any():
            rows.append({"unseen": [lo, hi], "positions": int(m.sum()),
                         "log_loss": round(log_loss(theta, u[m], s[m], y[m]), 4),
                         "brier": round(brier(theta, u[m], s[m], y[m]), 4)})  # fmt: skip
    return rows


def calibration(theta: np.ndarray, u: np.ndarray, s: np.ndarray, y: np.ndarray) -> list:
    """Held-out positions by predicted probability (tenths): count, mean predicted, mean
    result."""
    p = probability(theta, u, s)
    rows = []
    for k in range(10):
        m = (p >= k / 10) & ((p < (k + 1) / 10) if k < 9 else (p <= 1))
        if m.any():
            rows.append({"predicted_band": [k / 10, (k + 1) / 10], "positions": int(m.sum()),
                         "predicted": round(float(p[m].mean()), 4),
                         "observed": round(float(y[m].mean()), 4)})  # fmt: skip
    return rows


def model_json(samples: list[Sample], meta: dict) -> dict:
    arr = np.array(samples, dtype=float)
    game, u, s, y = arr[:, 0], arr[:, 1], arr[:, 2], arr[:, 3]
    held = (game.astype(int) % HOLDOUT_EVERY) == HOLDOUT_EVERY - 1
    theta = fit(u[~held], s[~held], y[~held])
    m0, m1, ls0, ls1 = (float(x) for x in theta)
    return {
        "format": "gcgtools-winmodel-1",
        "name": f"gcgtools self-play logistic ({meta['games']} games, seed {meta['seed']})",
        "model": "logistic: P = 1/(1+exp(-(spread + m0 + m1*u)/sqrt(s0^2 + s1^2*u)))",
        "parameters": {
            "m0": round(m0, 6),
            "m1": round(m1, 6),
            "s0": round(float(np.exp(ls0)), 6),
            "s1": round(float(np.exp(ls1)), 6),
        },
        "fit": {
            "method": "maximum likelihood (Newton), draws as half a win",
            "train_positions": int((~held).sum()),
            "heldout_positions": int(held.sum()),
            "heldout_games": f"every {HOLDOUT_EVERY}th game (index % {HOLDOUT_EVERY} == "
            f"{HOLDOUT_EVERY - 1})",
            "heldout_log_loss": round(log_loss(theta, u[held], s[held], y[held]), 5),
            "heldout_brier": round(brier(theta, u[held], s[held], y[held]), 5),
            "heldout_log_loss_coin": round(float(np.log(2)), 5),
            "heldout_by_unseen": by_unseen(theta, u[held], s[held], y[held]),
            "heldout_calibration": calibration(theta, u[held], s[held], y[held]),
        },  # fmt: skip
        "made_by": meta,
    }


def _write_samples(path: str, samples: list[Sample]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["game", "unseen", "spread", "result"])
        w.writerows(samples)


def _read_samples(path: str) -> list[Sample]:
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))[1:]
    return [(int(g), int(u), int(s), float(r)) for g, u, s, r in rows]


def main(argv: list[str] | None = None) -> int:
    data = _data_dir()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--lexicon", default=str(data / "lexica" / "ENABLE.kwg"))
    ap.add_argument("--leaves", default=str(data / "lexica" / "CSW21.klv2"))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--samples", help="write the samples to this CSV")
    ap.add_argument("--fit-only", metavar="SAMPLES", help="fit saved samples, play nothing")
    ap.add_argument("--made-by", metavar="MODEL", help="with --fit-only: keep the games' "
                    "timing and Python version from this earlier model file")  # fmt: skip
    ap.add_argument("--out", default=str(ROOT / "gcgtools" / "analysis" / "winpct_model.json"))
    args = ap.parse_args(argv)
    started = time.time()
    meta = {
        "script": "tools/selfplay_winpct.py",
        "games": args.games,
        "seed": args.seed,
        "lexicon": Path(args.lexicon).name,
        "leaves": Path(args.leaves).name,
        "tiles": DEFAULT_RULES.tiles.name,
        "board": DEFAULT_RULES.board.name,
        "rules": DEFAULT_RULES.name,
        "player": "static: highest equity (score + leave) each turn, both sides",
    }
    if args.fit_only:
        samples = _read_samples(args.fit_only)
        meta["games"] = len({g for g, *_ in samples})
        if args.made_by:
            earlier = json.loads(Path(args.made_by).read_text(encoding="utf-8"))["made_by"]
            if (earlier["games"], earlier["seed"]) != (meta["games"], meta["seed"]):
                sys.exit("--made-by: that model was made from other games (games, seed)")
            meta.update({k: earlier[k] for k in ("play_seconds", "python") if k in earlier})
    else:
        samples = list(play_games(args.games, args.seed, args.lexicon, args.leaves, args.jobs))
        meta["play_seconds"] = round(time.time() - started, 1)
        meta["python"] = platform.python_version()
        if args.samples:
            _write_samples(args.samples, samples)
    meta["positions"] = len(samples)
    out = model_json(samples, meta)
    write_atomic(args.out, (json.dumps(out, indent=2) + "\n").encode())
    print(json.dumps(out["parameters"]), json.dumps(out["fit"]["heldout_log_loss"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
