"""The output kinds: every job is a Renderer, renders a record through the protocol, and
one file through the command line is the batch of one."""

from __future__ import annotations

import dataclasses
import pickle
import warnings
from pathlib import Path

import pytest
from support.samples_annotator import BINGO, GAME
from typer.testing import CliRunner

from gcgtools import parse_string
from gcgtools.cli import app
from gcgtools.edit.annotate import annotate
from gcgtools.edit.fix import fix_record
from gcgtools.jobs.kinds import KINDS, AnnotateJob, FixJob, PictureJob, ReportJob, WriteJob
from gcgtools.jobs.outputs import FileJob, OutputJob, make_output, write_outputs
from gcgtools.jobs.renderer import Rendered, Renderer
from gcgtools.render.writer import write_gcg

WRONG = GAME.replace("8G HEX +26 26", "8G HEX +20 20").replace("O.IDES +16 16", "O.IDES +16 10")
JOBS: list[Renderer] = [
    WriteJob(normalise=True),
    AnnotateJob(),
    FixJob(),
    ReportJob(),
    PictureJob(fmt="svg"),
    PictureJob(fmt="png", size=200),
]


@pytest.mark.parametrize("job", JOBS, ids=lambda j: f"{type(j).__name__}{j.suffix}")
def test_every_kind_renders_through_the_protocol(job: Renderer) -> None:
    assert isinstance(job, Renderer)
    assert dataclasses.is_dataclass(job) and type(job).__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert pickle.loads(pickle.dumps(job)) == job  # a worker process gets the same job
    made = job.render(parse_string(WRONG, "wrong.gcg"))
    assert isinstance(made, Rendered) and made.data
    assert made.status == (1 if job.findings and made.summary["unfixable"] else 0)  # type: ignore[index]
    start = {".gcg": b"#", ".html": b"<!DOCTYPE html>", ".svg": b"<svg", ".png": b"\x89PNG"}
    assert made.data.startswith(start[job.suffix])


def test_each_kind_makes_what_its_module_makes() -> None:
    game = parse_string(WRONG, "wrong.gcg")
    assert WriteJob(normalise=True).render(game).data == write_gcg(game, normalise=True)
    assert AnnotateJob().render(game).data == annotate(game)
    fixed = FixJob().render(game)
    assert fixed.data == fix_record(game).data
    assert fixed.summary is not None and fixed.summary["changes"] == 2
    assert any("+20 -> +26" in m for m in fixed.messages)


def test_kinds_table_names_the_commands() -> None:
    assert set(KINDS) == {"annotate", "fix", "write", "report", "picture"}
    assert all(isinstance(cls(), Renderer) for cls in KINDS.values())


def test_a_bad_option_is_an_outcome_not_an_exception() -> None:
    outcome = make_output(PictureJob(move=999), parse_string(GAME, "game.gcg"))
    assert outcome.status == 2 and outcome.target is None
    assert outcome.reason is not None and "move must be between 0 and" in outcome.reason


def test_the_deprecated_factory_builds_the_typed_job(tmp_path: Path) -> None:
    with pytest.warns(DeprecationWarning):
        job = OutputJob("write", {"normalise": True, "rules": None})
    assert job == FileJob(WriteJob(normalise=True))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert OutputJob("annotate", {"only": ["words"]}).renderer == AnnotateJob(("words",))
        with pytest.raises(ValueError, match="unknown output kind"):
            OutputJob("poster")
    path = tmp_path / "game.gcg"
    path.write_text(GAME)
    outcome = job(str(path), str(tmp_path / "out.gcg"))
    assert outcome.status == 0
    assert (tmp_path / "out.gcg").read_bytes() == write_gcg(parse_string(GAME), normalise=True)


@pytest.mark.parametrize(
    ("command", "job"),
    [
        (["write", "--normalise"], WriteJob(normalise=True)),
        (["annotate"], AnnotateJob()),
        (["fix"], FixJob()),
        (["report"], ReportJob()),
        (["picture", "-m", "3"], PictureJob(move=3, fmt="svg")),
    ],
    ids=lambda v: v[0] if isinstance(v, list) else "",
)
def test_one_file_is_the_batch_of_one(tmp_path: Path, command: list[str], job: Renderer) -> None:
    """The command's output for one file (-o FILE) is the output the batch job writes for
    that file into a folder, byte for byte."""
    path = tmp_path / "wrong.gcg"
    path.write_text(WRONG)
    single = tmp_path / f"single{job.suffix}"
    result = CliRunner().invoke(app, [*command, str(path), "-o", str(single)])
    assert result.exit_code in (0, 1), result.output
    outcomes = list(write_outputs(job, [str(path)], str(tmp_path / "batch"), jobs=1))
    assert [o.status for o in outcomes] == [0]
    assert outcomes[0].target is not None
    assert Path(outcomes[0].target).read_bytes() == single.read_bytes()


def test_one_file_to_standard_output_is_the_batch_of_one(tmp_path: Path) -> None:
    path = tmp_path / "bingo.gcg"
    path.write_text(BINGO)
    result = CliRunner().invoke(app, ["annotate", str(path)])
    assert result.exit_code == 0
    made = make_output(AnnotateJob(), parse_string(BINGO, str(path)))
    assert made.data is not None and result.stdout_bytes == made.data


def test_one_unreadable_reason_everywhere(tmp_path: Path) -> None:
    """A batch output, the analysis and the chart give the same reason for a record that
    cannot be read: gcgtools.model.game.unreadable_reason's."""
    from gcgtools.analysis.analyse import analyse_record
    from gcgtools.jobs.charts import write_chart
    from gcgtools.model.game import unreadable_reason
    from gcgtools.sources.load import load_game

    garbage = tmp_path / "broken.gcg"
    garbage.write_bytes(b"\xff\xfe\x00garbage\n>x: y\n")
    for path in (str(garbage), str(tmp_path / "missing.gcg")):
        game = load_game(path)
        reason = unreadable_reason(game.findings)
        assert reason.startswith(("F001 ", "P105 line 1: "))
        assert FileJob(WriteJob())(path, str(tmp_path / "out.gcg")).reason == reason
        assert analyse_record(game, lexicon=None).reason == reason
        chart = write_chart(path, tmp_path / "chart.svg")
        assert chart.reasons == {game.display_name: reason}
