"""Judging a record's turns at a depth (`gcgtools analyse --depth sim|full`): the phases,
the grades by the engines' thresholds, the Mistake Index, the JSON keys (new ones only),
phonies not graded, the result cache keyed by depth and settings, and the seeds."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest
from conftest import valid_file
from support.reference_data import DATA, needs_data
from typer.testing import CliRunner

from gcgtools.analysis import grading
from gcgtools.analysis.judge import (
    FULL_SETTINGS,
    SIM_SETTINGS,
    Depth,
    JudgeSettings,
    settings_for,
    turn_seed,
)
from gcgtools.batch.cache import cache_info, results_folder
from gcgtools.cli import app

pytestmark = [needs_data, pytest.mark.usefixtures("private_cache")]

#: a real game (woogles, NWL23) whose racks are all known, through a pre-endgame and an
#: endgame; ENABLE lacks a few of its words (they show as phonies)
GAME = "domino14__macondo/preendgame__testdata__issue_476.gcg"
TINY = ("--sim-iterations", "6", "--sim-candidates", "3", "--endgame-nodes", "3000",
        "--preendgame-nodes", "300")  # fmt: skip


def enable() -> str:
    assert DATA is not None
    return str(DATA / "lexica" / "ENABLE.kwg")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout


def short_game(tmp_path: Path, turns: int = 8) -> str:
    """The first ``turns`` turns of the real game (mid-game only: fast)."""
    lines = valid_file(GAME).read_text().splitlines()
    head = [x for x in lines if x.startswith("#")]
    moves = [x for x in lines if x.startswith(">")][:turns]
    path = tmp_path / "short.gcg"
    path.write_text("\n".join(head + moves) + "\n")
    return str(path)


@pytest.fixture(scope="module")
def judged() -> dict:
    code, out = run("analyse", str(valid_file(GAME)), "--lexicon", enable(), "-f", "json",
                    "--depth", "sim", "--no-cache", *TINY)  # fmt: skip
    assert code == 0
    return json.loads(out)


def test_every_analysed_turn_is_judged_in_its_phase(judged: dict) -> None:
    assert judged["depth"] == "sim"
    turns = [t for t in judged["turns"] if t["status"] == "analysed"]
    assert turns and all("judgement" in t for t in turns)
    phases = [t["judgement"]["phase"] for t in turns]
    assert phases[0] == "opening"
    # the phases come in the game's order, each one at least once
    order = ["opening", "midgame", "preendgame", "endgame"]
    assert sorted(set(phases), key=order.index) == order
    assert phases == sorted(phases, key=order.index)
    methods = {t["judgement"]["phase"]: t["judgement"]["method"] for t in turns}
    assert methods["midgame"] == "simulation"
    assert methods["preendgame"] == "preendgame"
    assert methods["endgame"] == "endgame"


def test_grades_follow_the_thresholds(judged: dict) -> None:
    graded = 0
    for t in judged["turns"]:
        j = t.get("judgement")
        if j is None or j["played"] is None:
            continue
        graded += 1
        if j["phase"] == "endgame":
            lost = j["best"]["value"] - j["played"]["value"]
            assert j["spread_lost"] == lost and j["win_pct_lost"] is None
            final = j["best"]["spread"]
            expected = grading.mistake_from_spread(lost, best_final=final)
        else:
            lost = j["best"]["win_pct"] - j["played"]["win_pct"]
            assert j["win_pct_lost"] == pytest.approx(max(0.0, lost), abs=2e-3)
            expected = grading.mistake_from_win_pct(j["win_pct_lost"])
        assert j["mistake"] == str(expected)
        # the move played is among the moves kept, with its numbers
        assert j["played"] in j["moves"]
    assert graded >= 10


def test_phonies_are_shown_as_such_not_graded(judged: dict) -> None:
    phonies = [t for t in judged["turns"] if t.get("judgement") and t["phony_words"]]
    assert phonies
    for t in phonies:
        j = t["judgement"]
        assert j["played"] is None and j["mistake"] is None and j["win_pct_lost"] is None
        assert "phony" in j["note"] and j["best"]["move"]


def test_mistake_index_sums_the_grades(judged: dict) -> None:
    weights = {"none": 0.0, "small": 0.2, "medium": 0.5, "large": 1.0}
    expected: dict[str, float] = {}
    for t in judged["turns"]:
        j = t.get("judgement")
        if j and j["mistake"]:
            expected[t["player"]] = expected.get(t["player"], 0.0) + weights[j["mistake"]]
    assert judged["mistake_index"] == pytest.approx(expected)
    assert set(judged["mistake_index"]) == set(judged["players"])


def test_static_json_has_no_new_keys(tmp_path: Path) -> None:
    code, out = run("analyse", short_game(tmp_path), "--lexicon", enable(), "-f", "json")
    assert code == 0
    data = json.loads(out)
    assert "depth" not in data and "mistake_index" not in data
    assert all("judgement" not in t for t in data["turns"])


def test_text_shows_phase_loss_badge_and_index(tmp_path: Path) -> None:
    code, out = run("analyse", short_game(tmp_path), "--lexicon", enable(), "--depth", "sim",
                    "--no-cache", *TINY)  # fmt: skip
    assert code == 0
    assert "judged at depth sim" in out and "Mistake Index:" in out
    assert "opening" in out and "midgame" in out


def test_cache_keyed_by_depth_settings_and_seed(tmp_path: Path, private_cache: Path) -> None:
    game = short_game(tmp_path, turns=4)
    base = ("analyse", game, "--lexicon", enable(), "-f", "json", *TINY)

    def counts() -> tuple[int, int]:
        info = cache_info(results_folder(private_cache))
        return info.hits, info.misses

    first = run(*base, "--depth", "sim")
    assert counts() == (0, 1)
    assert run(*base, "--depth", "sim") == first  # a second run hits
    assert counts() == (1, 1)
    run(*base, "--depth", "full")  # another depth misses
    assert counts() == (1, 2)
    run(*base, "--depth", "sim", "--seed", "7")  # another seed misses
    assert counts() == (1, 3)
    run(*base[:-8], "--depth", "sim", "--sim-iterations", "5")  # other settings miss
    assert counts() == (1, 4)
    run(*base, "--depth", "static")  # the static entry is its own
    assert counts() == (1, 5)


def test_same_seed_same_judgement_other_seed_other_draws(tmp_path: Path) -> None:
    game = short_game(tmp_path, turns=4)
    base = ("analyse", game, "--lexicon", enable(), "-f", "json", "--depth", "sim",
            "--no-cache", *TINY)  # fmt: skip
    one, again = run(*base), run(*base)
    assert one == again
    seeds = [t["judgement"]["seed"] for t in json.loads(one[1])["turns"] if "judgement" in t]
    other = json.loads(run(*base, "--seed", "1")[1])
    assert seeds != [t["judgement"]["seed"] for t in other["turns"] if "judgement" in t]


def test_turn_seeds_depend_on_seed_record_and_event_only() -> None:
    assert turn_seed(0, "abc", 3) == turn_seed(0, "abc", 3)
    assert len({turn_seed(0, "abc", 3), turn_seed(1, "abc", 3), turn_seed(0, "abd", 3),
                turn_seed(0, "abc", 4)}) == 4  # fmt: skip


def test_settings_for_each_depth() -> None:
    assert settings_for("sim") == SIM_SETTINGS
    assert settings_for(Depth.FULL, seed=3) == JudgeSettings(**{**FULL_SETTINGS.to_dict(),
                                                                "seed": 3})  # fmt: skip
    assert settings_for("sim", sim_iterations=9, endgame_nodes=None).sim_iterations == 9
    assert FULL_SETTINGS.sim_iterations > SIM_SETTINGS.sim_iterations
    with pytest.raises(ValueError):
        settings_for("static")
    with pytest.raises(ValueError):
        JudgeSettings(sim_iterations=0)


def test_frames_and_stats_carry_the_judgement(tmp_path: Path) -> None:
    from gcgtools.tables.frames import load_frames
    from gcgtools.tables.stats import player_stats

    game = short_game(tmp_path, turns=6)
    tiny = JudgeSettings(sim_candidates=3, sim_iterations=6)
    frames = load_frames([game], lexicon=enable(), depth="sim", judge=tiny, jobs=1)
    code, out = run("analyse", game, "--lexicon", enable(), "-f", "json", "--depth", "sim",
                    "--sim-iterations", "6", "--sim-candidates", "3")  # fmt: skip
    judged = json.loads(out)
    by_event = {t["event"]: t.get("judgement") for t in judged["turns"]}
    moves = frames.moves.set_index("event")
    for event, j in by_event.items():
        row = moves.loc[event]
        if j is None:
            assert row.isna()["phase"]
            continue
        assert row["phase"] == j["phase"]
        assert (row["mistake"] if not pd.isna(row["mistake"]) else None) == j["mistake"]
        if j["played"] is not None:
            assert row["win_pct"] == pytest.approx(j["played"]["win_pct"], abs=1e-3)
            assert row["win_pct_lost"] == pytest.approx(j["win_pct_lost"], abs=1e-3)
    players = frames.players.set_index("player")
    for nick, index in judged["mistake_index"].items():
        assert players.loc[nick, "mistake_index"] == pytest.approx(index)
    stats = player_stats(frames.players)
    for nick in judged["mistake_index"]:
        graded = [j for t in judged["turns"] if t["player"] == nick
                  and (j := t.get("judgement")) and j["mistake"]]  # fmt: skip
        large = sum(j["mistake"] == "large" for j in graded)
        best = sum(j["played"]["move"] == j["best"]["move"] for j in graded)
        assert stats.loc[nick, "mistakes_large"] == large
        assert stats.loc[nick, "best_move_share"] == pytest.approx(best / len(graded), abs=1e-3)
    # without a judgement the columns are there and NA
    static = load_frames([game], lexicon=enable(), jobs=1)
    assert static.moves["phase"].isna().all() and static.players["mistake_index"].isna().all()


def test_html_report_and_site_show_the_judgement(tmp_path: Path) -> None:
    game = short_game(tmp_path, turns=6)
    page = tmp_path / "game.html"
    code, _ = run("report", game, "--lexicon", enable(), "--depth", "sim", "--sim-iterations",
                  "6", "--sim-candidates", "3", "-o", str(page))  # fmt: skip
    assert code == 0
    html = page.read_text()
    code, out = run("analyse", game, "--lexicon", enable(), "-f", "json", "--depth", "sim",
                    "--sim-iterations", "6", "--sim-candidates", "3")  # fmt: skip
    judged = json.loads(out)
    graded = [t["judgement"]["mistake"] for t in judged["turns"]
              if t.get("judgement") and t["judgement"]["mistake"]]  # fmt: skip
    assert html.count('class="badge ') == len(graded)
    for size in set(graded):
        assert f'class="badge {size}"' in html
    assert '<svg class="win-chart"' in html and "<h2>Mistakes</h2>" in html
    assert html.count("<circle") >= sum(1 for t in judged["turns"] if t.get("judgement"))
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    # a site: the index gets the Mistake Index column, with each seat's index
    site = tmp_path / "site"
    second = tmp_path / "second.gcg"
    second.write_text(Path(game).read_text())
    code, _ = run("report", game, str(second), "--lexicon", enable(), "--depth", "sim",
                  "--sim-iterations", "6", "--sim-candidates", "3", "-o", str(site))  # fmt: skip
    assert code == 0
    index = (site / "index.html").read_text()
    assert ">Mistake Index</th>" in index
    text = " - ".join(f"{v:.1f}" for v in judged["mistake_index"].values())
    assert f">{text}</td>" in index
    # static: no judgement anywhere
    run("report", game, "--lexicon", enable(), "-o", str(page))
    static = page.read_text()
    assert 'class="badge ' not in static and "win-chart" not in static


def test_games_of_three_players_are_not_judged() -> None:
    from pathlib import Path as P

    three = P(__file__).resolve().parents[2] / "examples" / "three-players.gcg"
    code, out = run("analyse", str(three), "--lexicon", enable(), "-f", "json", "--depth", "sim",
                    "--no-cache", *TINY)  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert data["depth"] == "sim" and all("judgement" not in t for t in data["turns"])
    assert set(data["mistake_index"].values()) == {0.0}


def test_endgame_judgement_equals_the_all_moves_solve() -> None:
    """The judge solves only the best move and the move played, each exactly: their
    values are those of the solve that values every root move (the game's endgame turns
    with at most 8 tiles on the racks)."""
    from gcgtools.analysis.analyse import analyse_record
    from gcgtools.analysis.endgame import endgame_position, solve_endgame
    from gcgtools.analysis.judge import judge_record
    from gcgtools.lexicon import load_lexicon
    from gcgtools.movegen.record import record_position
    from gcgtools.sources.load import load_game

    lexicon = load_lexicon(enable())
    game = load_game(valid_file(GAME))
    analysis = analyse_record(game, lexicon=lexicon)
    positions = {}
    for t in analysis.turns:
        rp = record_position(game, t.event - 1)
        if t.analysed and rp.bag == 0 and len(rp.rack or ()) + len(rp.opponent_rack or ()) <= 8:
            positions[t.event] = endgame_position(rp, lexicon)
    assert len(positions) >= 3
    analysis = replace(analysis, turns=[t for t in analysis.turns if t.event in positions])
    judged = judge_record(game, analysis, lexicon, None, JudgeSettings(endgame_nodes=10**6))
    for t in judged.turns:
        j = t.judgement
        assert j is not None and j.method == "endgame" and j.proved
        every = solve_endgame(positions[t.event], all_moves=True)
        values = {m.notation: m.value for m in every.moves}
        assert j.best.value == every.value == values[j.best.move]
        assert j.played is not None and j.played.value == values[j.played.move]
        assert j.spread_lost == every.value - values[j.played.move]
        assert [m.move for m in j.moves] == list(dict.fromkeys([j.best.move, j.played.move]))


def test_sim_and_full_agree_on_every_turn_both_prove() -> None:
    """Wherever both depths prove a turn (the game's last endgame turns), --depth sim and
    --depth full give the same best value, the same value for the move played and the
    same grade; only unproved turns may differ. (The last three turns: the 14 tiles of
    event 27 take minutes in pure Python.)"""
    from gcgtools.analysis.analyse import analyse_record
    from gcgtools.analysis.judge import judge_turns
    from gcgtools.lexicon import load_lexicon
    from gcgtools.sources.load import load_game

    lexicon = load_lexicon(enable())
    game = load_game(valid_file(GAME))
    analysis = analyse_record(game, lexicon=lexicon)
    late = [t if t.event >= 28 else replace(t, status="not judged here") for t in analysis.turns]
    analysis = replace(analysis, turns=late)
    judged = {
        depth: judge_turns(game, analysis, lexicon, None, settings_for(depth), depth=depth)
        for depth in ("sim", "full")
    }
    sim, full = judged["sim"].judgements, judged["full"].judgements
    both = [e for e in sim if sim[e].proved and full[e].proved]
    assert len(both) == 3
    for e in both:
        a, b = sim[e], full[e]
        assert a.best.value == b.best.value, e
        assert (a.played and a.played.value) == (b.played and b.played.value), e
        assert a.mistake == b.mistake, e


def test_no_early_stop_judges_with_every_candidates_full_iterations(tmp_path: Path) -> None:
    """analyse --no-early-stop: every simulated candidate of every judged turn ran all
    its iterations; the setting is part of the settings (and of the cache key)."""
    code, out = run("analyse", short_game(tmp_path, 4), "--lexicon", enable(), "-f", "json",
                    "--depth", "sim", "--no-cache", "--sim-iterations", "70",
                    "--sim-candidates", "4", "--no-early-stop")  # fmt: skip
    assert code == 0
    judged = [t["judgement"] for t in json.loads(out)["turns"] if t.get("judgement")]
    assert judged and all(j["method"] == "simulation" for j in judged)
    assert all(m["iterations"] == 70 for j in judged for m in j["moves"])
    assert SIM_SETTINGS.to_dict()["early_stop"] is True
    assert replace(SIM_SETTINGS, early_stop=False).to_dict()["early_stop"] is False
