"""The catalogue of finding codes, and the Finding record every layer reports with.

Codes are stable, like a linter's rules: a letter for the family and three digits.

    F  file and encoding        P  syntax (one line on its own)
    H  header and players       O  order of events
    T  tiles and racks          B  board placement
    S  scores                   R  rules and end of game
    W  words checked against a lexicon (only when one is given: ``gcgtools analyse``)

This module sits below the syntax layer: the parser, the model and the replay all
report problems as :class:`Finding` objects carrying one of these codes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Severity = Literal["error", "warning", "info"]


@dataclass(frozen=True, slots=True)
class Rule:
    """One entry of the catalogue: a code, its default severity and its texts."""

    code: str
    severity: Severity
    title: str
    explanation: str


@dataclass(slots=True)
class Finding:
    """A problem found in a record, located at a line (1-based) and column (1-based)."""

    code: str
    message: str
    line: int = 0
    column: int = 1
    severity: Severity = "error"
    recorded: int | None = None
    computed: int | None = None
    path: str | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "severity": self.severity,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "recorded": self.recorded,
            "computed": self.computed,
        }

    def format(self, path: str | None = None) -> str:
        """``path:line:col: CODE message`` as a linter prints it."""
        where = path or self.path or "<gcg>"
        return f"{where}:{self.line}:{self.column}: {self.code} {self.message}"


_RULES: list[Rule] = [
    # ---------------------------------------------------------------- file
    Rule(
        "F001",
        "error",
        "file cannot be read",
        "The file does not exist, is a directory, or the operating system refused to read it.",
    ),
    Rule(
        "F002",
        "error",
        "file is empty",
        "The file holds no pragma and no event, so there is no game to read.",
    ),
    Rule(
        "F003",
        "error",
        "unsupported character encoding",
        "#character-encoding names an encoding gcgtools does not read. GCG files are UTF-8 or "
        "ISO-8859-1 (Latin-1); write one of those names.",
    ),
    Rule(
        "F004",
        "error",
        "encoding pragma is not the first line",
        "#character-encoding must be the very first line of the file (the GCG spec, Macondo and "
        "MAGPIE agree). Move it to line 1.",
    ),
    Rule(
        "F005",
        "error",
        "file cannot be decoded",
        "The bytes are not valid in the declared encoding.",
    ),
    Rule(
        "F006",
        "warning",
        "read as Latin-1",
        "The file has no #character-encoding line and is not valid UTF-8, so it is read as "
        "ISO-8859-1 (Latin-1), the GCG spec's default, which keeps it byte for byte. Reported "
        "when other lines with accented letters are valid UTF-8 (a stray byte in a UTF-8 "
        "file): each of their letters is then read as two characters. The finding names the "
        "first byte that is not UTF-8; fix it, or declare the encoding on the first line.",
    ),
    # -------------------------------------------------------------- syntax
    Rule(
        "P101",
        "error",
        "line does not match the GCG syntax",
        "The line starts like an event or pragma but its tokens are not in GCG order: "
        ">nick: RACK POSITION WORD +SCORE CUMULATIVE. The message shows where the parser stopped "
        "and what it expected there.",
    ),
    Rule(
        "P102",
        "error",
        "malformed rack",
        "A rack holds letters of the tile set, ? for blanks and [XX] multi-letter tiles, nothing "
        "else.",
    ),
    Rule(
        "P103",
        "error",
        "malformed play",
        "A play's word holds one character per square: a capital for a tile, lower case for a "
        "blank, '.' or the letter for a square already on the board, (..) for a run of board "
        "tiles, and [XX] for multi-letter tiles.",
    ),
    Rule(
        "P104",
        "error",
        "malformed exchange",
        "An exchange is -TILES with tiles from the rack, or -N with the number of tiles.",
    ),
    Rule(
        "P105",
        "error",
        "stray text line",
        "A line that starts with neither # nor > is only allowed as the continuation of a #note.",
    ),
    Rule(
        "P106",
        "warning",
        "extra text after the cumulative score",
        "Old Quackle and WSC records list the cross-words after the cumulative score; the text is "
        "kept but not checked.",
    ),
    Rule(
        "P107",
        "warning",
        "unknown pragma",
        "The pragma is not part of the GCG format as gcgtools knows it. It is kept verbatim.",
    ),
    Rule(
        "P108",
        "warning",
        "non-standard score sign",
        "Scores are written with a sign: +24, -10. Quackle's '+-6' and a missing '+' are read but "
        "are not canonical.",
    ),
    Rule(
        "P109",
        "warning",
        "note before the first event",
        "A #note annotates the event before it; one before any event belongs to no move. MAGPIE "
        "rejects it, Macondo drops it; gcgtools keeps it as a game note.",
    ),
    Rule(
        "P110",
        "info",
        "commented-out event",
        "A line starting with #> is an event somebody commented out. It is kept and ignored.",
    ),
    Rule(
        "P111",
        "error",
        "number out of range",
        "Scores, cumulatives and exchange counts are ASCII digits, at most five of them "
        "(-99,999 to 99,999; leading zeros aside). A longer number is a typo or garbage: the "
        "line is not read (its player's next cumulative and the turn order are not judged "
        "across it), rather than carrying a value no report or Parquet column can hold.",
    ),
    Rule(
        "P112",
        "error",
        "line too long",
        "An event line (>...) holds at most 1,000 characters, any other line (a note, a "
        "pragma) at most 100,000. A longer line is not read, so that time and memory per "
        "line stay bounded whatever the input; it is kept as it is (write copies it) and an "
        "event line there leaves a gap in the replay, as any unreadable line does.",
    ),
    # -------------------------------------------------------------- header
    Rule(
        "H201",
        "error",
        "duplicate nickname",
        "Two #player pragmas use the same nickname, so events cannot tell the players apart.",
    ),
    Rule(
        "H202",
        "warning",
        "duplicate full name",
        "Two players have the same full name (MAGPIE rejects this).",
    ),
    Rule("H203", "error", "player number defined twice", "The same #playerN pragma appears twice."),
    Rule(
        "H204",
        "error",
        "pragma repeated",
        "#title, #id, #lexicon, #board-layout, #tile-distribution and #game-type may appear once.",
    ),
    Rule(
        "H205",
        "error",
        "header pragma after the first event",
        "#player, #title, #description, #id, #lexicon, #game-type, #board-layout and "
        "#tile-distribution belong before the first event.",
    ),
    Rule(
        "H206",
        "error",
        "event by an unknown player",
        "The nickname of the event matches no #player pragma (nicknames are case-sensitive).",
    ),
    Rule(
        "H207",
        "error",
        "event before any player is declared",
        "Events refer to players by nickname, so the #player pragmas must come first.",
    ),
    Rule(
        "H208",
        "warning",
        "unrecognised game variant",
        "#game-type names a variant gcgtools does not know. Known: classic, wordsmog (scored "
        "like classic; only which words are good differs), classic_super and wordsmog_super "
        "(the Super board and tiles unless #board-layout/#tile-distribution say otherwise), in "
        "any case, with '-' or '_'. An unknown variant is replayed with classic rules.",
    ),
    Rule(
        "H209",
        "warning",
        "unknown tile set, board or lexicon",
        "The record names a tile distribution or board layout gcgtools has no table for; the "
        "default (English, standard board) is used.",
    ),
    Rule(
        "H210",
        "warning",
        "player without a full name",
        "#playerN should give a nickname and a full name; the nickname is used for both.",
    ),
    Rule(
        "H211",
        "error",
        "malformed pragma",
        "The pragma's value does not have the required form (for example #id AUTHORITY ID).",
    ),
    Rule(
        "H212",
        "info",
        "pragma not supported",
        "The pragma is recognised but gcgtools does not act on it (for example #orientation).",
    ),
    Rule(
        "H213",
        "warning",
        "players taken from the events",
        "The record has no #player pragma at all. The replay takes the players from the "
        "nicknames of the events, in order of first appearance; add #player1 and #player2 "
        "lines (MAGPIE and Macondo reject such a record).",
    ),
    # --------------------------------------------------------------- order
    Rule(
        "O301",
        "error",
        "player moves out of turn",
        "Plays, passes and exchanges alternate between the players in order.",
    ),
    Rule(
        "O302",
        "error",
        "move after the end of the game",
        "The game ended (a player went out, or six scoreless turns) before this move.",
    ),
    Rule(
        "O303",
        "error",
        "challenge bonus without a play",
        "(challenge) +N rewards the player whose play was challenged; it must follow that play.",
    ),
    Rule(
        "O304",
        "error",
        "challenge bonus for the wrong player",
        "The challenge bonus goes to the player who made the challenged play.",
    ),
    Rule(
        "O305",
        "error",
        "phony withdrawn without a play",
        "-- withdraws the play just made; it must follow a play by the same player. A -- that "
        "does not is ignored: the play before it stays on the board and can still be "
        "withdrawn, and the turn and the totals stay as they were.",
    ),
    Rule(
        "O306",
        "error",
        "phony withdrawn by the wrong player or with another rack",
        "The -- line repeats the player and the rack of the withdrawn play.",
    ),
    Rule(
        "O307",
        "error",
        "end-of-game line before the game is over",
        "End-rack points, own-rack penalties and time penalties come only after the game ended.",
    ),
    Rule(
        "O308",
        "error",
        "end-of-game points given twice",
        "Each end-of-game adjustment appears once.",
    ),
    Rule(
        "O309",
        "error",
        "time penalty before the end-rack lines",
        "Time penalties come after all end-of-game rack lines.",
    ),
    Rule(
        "O310",
        "error",
        "time penalty given twice",
        "Each player has at most one time penalty line.",
    ),
    Rule(
        "O311",
        "error",
        "event after the final #rack",
        "#rack1/#rack2 at the end of a record give the racks of an unfinished game; no event may "
        "follow them.",
    ),
    Rule(
        "O312",
        "info",
        "record ends before the game is over",
        "The bag is not empty or nobody went out: the record is incomplete.",
    ),
    Rule(
        "O313",
        "warning",
        "pass before the end-rack points",
        "Woogles-era files keep the opponent's final pass after the out-play; it is accepted and "
        "ignored.",
    ),
    Rule(
        "O314",
        "error",
        "end-of-game line for the wrong player",
        "(TILES) +N goes to the player who went out; RACK (RACK) -N to a player left with tiles.",
    ),
    # --------------------------------------------------------------- tiles
    Rule(
        "T401",
        "error",
        "tiles played are not in the rack",
        "Every tile placed or exchanged must be in the recorded rack.",
    ),
    Rule(
        "T402",
        "error",
        "rack cannot be drawn from the unseen tiles",
        "The rack holds more of a letter than are left in the bag and the opponent's rack.",
    ),
    Rule(
        "T403",
        "error",
        "letter not in the tile set",
        "The letter does not exist in the game's tile distribution.",
    ),
    Rule(
        "T404",
        "error",
        "exchange with fewer than 7 tiles in the bag",
        "An exchange is allowed only while the bag holds at least 7 tiles.",
    ),
    Rule(
        "T405",
        "error",
        "exchange of more tiles than the rack holds",
        "-N exchanges N tiles of the rack.",
    ),
    Rule(
        "T406",
        "error",
        "blank without a letter",
        "A blank placed on the board is written as the lower-case letter it stands for.",
    ),
    Rule(
        "T407",
        "error",
        "end-rack tiles do not match",
        "The tiles in (TILES) must be the opponent's unplayed tiles; RACK (RACK) repeats the same "
        "rack twice.",
    ),
    Rule(
        "T408",
        "warning",
        "more tiles played than the set holds",
        "Across the game, a letter was played more times than the tile set contains.",
    ),
    # --------------------------------------------------------------- board
    Rule(
        "B501",
        "error",
        "first play misses the centre",
        "The first play of the game must cover the centre square.",
    ),
    Rule(
        "B502",
        "error",
        "first play of a single tile",
        "The first play must use at least two tiles.",
    ),
    Rule(
        "B503",
        "error",
        "play not connected",
        "Every later play touches a tile already on the board.",
    ),
    Rule(
        "B504",
        "error",
        "play runs off the board",
        "The word does not fit on the board from its start square. Where the play really "
        "went is unknown, so none of its tiles is put on the board (they still leave the rack "
        "and the bag), and no later play is judged by tiles that may not be there.",
    ),
    Rule(
        "B505",
        "error",
        "start square is not the start of the word",
        "The coordinate names the square of the first letter of the whole word, including letters "
        "already on the board before it.",
    ),
    Rule(
        "B506",
        "error",
        "letter does not match the board",
        "A played-through letter must equal the tile on that square. The play's new tiles "
        "are put on their own written squares (no score is computed for it).",
    ),
    Rule(
        "B508",
        "error",
        "gap in the play",
        "A '.' marks a square already on the board; that square is empty. The play's new "
        "tiles are put on their own written squares (no score is computed for it).",
    ),
    Rule("B509", "error", "play places no tile", "A play puts at least one new tile on the board."),
    Rule(
        "B510",
        "warning",
        "word does not extend to its full length",
        "The tiles recorded do not cover the whole word: the board continues past its end.",
    ),
    Rule(
        "B511",
        "info",
        "play through a square an unplaceable play may cover",
        "An earlier play could not be put down as written (it ran off the board, B504, or "
        "played through empty squares, B508), so where its tiles really are is unknown. A "
        "later play through one of the empty squares it may cover is not reported as "
        "playing through an empty square and is not scored (its recorded score counts), so "
        "one wrong coordinate is reported once, not on every play near it.",
    ),
    # -------------------------------------------------------------- scores
    Rule(
        "S601",
        "error",
        "play score is wrong",
        "The recorded score of the play differs from the score computed from the board: letter "
        "premiums, then word premiums for new tiles, every cross-word, and the bingo bonus.",
    ),
    Rule(
        "S602",
        "error",
        "cumulative score is wrong",
        "The cumulative is the player's total after the event. Later lines are judged from the "
        "recorded total, so one mistake is reported once.",
    ),
    Rule(
        "S603",
        "error",
        "end-rack points are wrong",
        "Standard rules give the player who went out twice the value of the opponents' racks; "
        "international rules give the value once.",
    ),
    Rule(
        "S604",
        "error",
        "own-rack penalty is wrong",
        "RACK (RACK) -N takes off the value of the player's own unplayed tiles.",
    ),
    Rule(
        "S605",
        "error",
        "withdrawn score does not cancel the play",
        "-- -N takes back exactly the withdrawn play's score.",
    ),
    Rule(
        "S606",
        "warning",
        "unusual challenge bonus",
        "The challenge bonus is 0, 5 (or 5 per word) or 10 points depending on the rules.",
    ),
    Rule(
        "S607",
        "warning",
        "time penalty is not a multiple of 10",
        "Time penalties are 10 points per started minute over time.",
    ),
    Rule(
        "S608",
        "error",
        "score has the wrong sign",
        "Plays, bonuses and end-rack points are positive; penalties and withdrawals negative.",
    ),
    Rule(
        "S609",
        "warning",
        "most plays misscored: another board or tile values?",
        "At least three in five of the record's plays (five or more) score otherwise than the "
        "replay computes. One wrong score is a mistake; most of them usually mean the game was "
        "played on another board or with other tile values (an older Quackle set-up, a "
        "teaching variant). When a known board and tile set fit the scores, the finding names "
        "them; otherwise give the record's own with --board FILE (a grid of premium symbols) "
        "and --tiles FILE ('letter count value' lines), see the README.",
    ),
    # --------------------------------------------------------------- rules
    Rule(
        "R701",
        "info",
        "game ended by six scoreless turns",
        "Six scoreless turns in a row end the game; each player loses the value of their rack.",
    ),
    Rule(
        "R702",
        "warning",
        "end-of-game adjustment missing",
        "The game is over but the record has no end-rack line.",
    ),
    # ------------------------------------------- words (analysis with a lexicon)
    Rule(
        "W801",
        "info",
        "phony stood unchallenged",
        "A play formed a word that is not in the lexicon used for the analysis, and the play "
        "stood: no --, no challenge bonus. The message names the word(s). Only reported when "
        "a lexicon is given (gcgtools analyse, annotate --only analysis); a record played "
        "with another lexicon than the one given reports the words the two lists disagree on.",
    ),
    Rule(
        "W802",
        "warning",
        "valid play withdrawn",
        "A play was taken off the board with -- (a successful challenge) although every word "
        "it formed is in the lexicon used for the analysis: either the challenge was ruled "
        "wrongly, the record was played with another lexicon, or the -- line is a mistake.",
    ),
    Rule(
        "W803",
        "warning",
        "challenge bonus after a phony",
        "A challenge bonus line (the challenger lost) follows a play that formed a word not in "
        "the lexicon used for the analysis. Under that lexicon the challenge should have "
        "succeeded and the play been withdrawn (--).",
    ),
]

RULES: dict[str, Rule] = {r.code: r for r in _RULES}


def rule(code: str) -> Rule:
    """Return the catalogue entry for ``code`` (KeyError if unknown)."""
    return RULES[code.upper()]


def make(
    code: str,
    message: str,
    line: int = 0,
    column: int = 1,
    *,
    recorded: int | None = None,
    computed: int | None = None,
    severity: Severity | None = None,
) -> Finding:
    """Build a finding with the catalogue's default severity for ``code``."""
    return Finding(
        code=code,
        message=message,
        line=line,
        column=column,
        severity=severity or RULES[code].severity,
        recorded=recorded,
        computed=computed,
    )
