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

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Literal

Severity = Literal["error", "warning", "info"]

EXIT_CLEAN, EXIT_FINDINGS, EXIT_UNREADABLE = 0, 1, 2
"""The exit statuses, defined here only: a file's (and an output's) outcome and the
command's status, the worst of its files': clean; findings (or an output made with
findings left); unreadable input (or an output that could not be made)."""


@dataclass(frozen=True, slots=True)
class Rule:
    """One entry of the catalogue: a code, its default severity and its texts: a title,
    an explanation, an example of a record line (or two) that gets the finding, and how to
    fix it."""

    code: str
    severity: Severity
    title: str
    explanation: str
    example: str = ""
    fix: str = ""

    def to_dict(self) -> dict[str, str]:
        return {
            "code": self.code,
            "severity": self.severity,
            "title": self.title,
            "explanation": self.explanation,
            "example": self.example,
            "fix": self.fix,
        }


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

    @property
    def family(self) -> str:
        """The family of the finding's code (:class:`Family`): its letter."""
        return self.code[:1]

    def is_error(self, *families: str) -> bool:
        """An error (not a warning nor an info) of one of ``families`` (:class:`Family`;
        none given: of any)."""
        return self.severity == "error" and (not families or self.family in families)


class Family:
    """The finding families: the letter a code begins with (the table of the module's
    doc), so that code asking what kind a finding is names it (``f.family ==
    Family.SYNTAX``, ``f.is_error(Family.BOARD)``) rather than testing ``code[0]``."""

    FILE = "F"
    SYNTAX = "P"
    HEADER = "H"
    ORDER = "O"
    TILES = "T"
    BOARD = "B"
    SCORES = "S"
    RULES = "R"
    WORDS = "W"

    ALL = (FILE, SYNTAX, HEADER, ORDER, TILES, BOARD, SCORES, RULES, WORDS)
    #: what reading a record reports, before any replay: the file, its lines, its header
    READING = (FILE, SYNTAX, HEADER)


def cannot_read(finding: Finding) -> bool:
    """Whether ``finding`` is an error on what could not be read: the file (``F``) or a
    line of it (``P``). A record with one is unreadable (the file) or partly read."""
    return finding.is_error(Family.FILE, Family.SYNTAX)


class Code:
    """The finding codes by name, so that code comparing or emitting findings names what a
    code means (``Code.PLAY_SCORE``) rather than spelling its digits. The values are the
    stable public codes; the catalogue below is written with these names, so each code is
    spelt once."""

    # file and encoding
    UNREADABLE_FILE = "F001"
    EMPTY_FILE = "F002"
    UNSUPPORTED_ENCODING = "F003"
    ENCODING_NOT_FIRST = "F004"
    UNDECODABLE = "F005"
    READ_AS_LATIN1 = "F006"
    PROCESSING_FAILED = "F010"
    # syntax
    SYNTAX = "P101"
    MALFORMED_RACK = "P102"
    MALFORMED_PLAY = "P103"
    MALFORMED_EXCHANGE = "P104"
    STRAY_TEXT = "P105"
    TEXT_AFTER_CUMULATIVE = "P106"
    UNKNOWN_PRAGMA = "P107"
    SCORE_SIGN_FORM = "P108"
    NOTE_BEFORE_EVENTS = "P109"
    COMMENTED_EVENT = "P110"
    NUMBER_OUT_OF_RANGE = "P111"
    LINE_TOO_LONG = "P112"
    # header and players
    DUPLICATE_NICK = "H201"
    DUPLICATE_NAME = "H202"
    PLAYER_DEFINED_TWICE = "H203"
    PRAGMA_REPEATED = "H204"
    HEADER_AFTER_EVENTS = "H205"
    UNKNOWN_PLAYER = "H206"
    EVENT_BEFORE_PLAYER = "H207"
    UNKNOWN_VARIANT = "H208"
    UNKNOWN_RULES_NAME = "H209"
    NO_FULL_NAME = "H210"
    MALFORMED_PRAGMA = "H211"
    UNSUPPORTED_PRAGMA = "H212"
    PLAYERS_FROM_EVENTS = "H213"
    # order of events
    OUT_OF_TURN = "O301"
    AFTER_GAME_END = "O302"
    BONUS_WITHOUT_PLAY = "O303"
    BONUS_WRONG_PLAYER = "O304"
    WITHDRAWN_WITHOUT_PLAY = "O305"
    WITHDRAWN_MISMATCH = "O306"
    END_LINE_TOO_EARLY = "O307"
    END_POINTS_TWICE = "O308"
    TIME_PENALTY_TOO_EARLY = "O309"
    TIME_PENALTY_TWICE = "O310"
    EVENT_AFTER_FINAL_RACK = "O311"
    GAME_NOT_OVER = "O312"
    PASS_AFTER_OUT = "O313"
    END_LINE_WRONG_PLAYER = "O314"
    # tiles and racks
    NOT_IN_RACK = "T401"
    NOT_DRAWABLE = "T402"
    NOT_A_TILE = "T403"
    EXCHANGE_BAG_LOW = "T404"
    EXCHANGE_TOO_MANY = "T405"
    BLANK_WITHOUT_LETTER = "T406"
    END_TILES_MISMATCH = "T407"
    TILES_OVERPLAYED = "T408"
    RACK_TOO_BIG = "T409"
    # board placement
    MISSES_CENTRE = "B501"
    SINGLE_TILE_FIRST = "B502"
    NOT_CONNECTED = "B503"
    OFF_BOARD = "B504"
    NOT_WORD_START = "B505"
    BOARD_MISMATCH = "B506"
    GAP_IN_PLAY = "B508"
    NO_TILE_PLACED = "B509"
    WORD_CUT_SHORT = "B510"
    UNCERTAIN_SQUARE = "B511"
    # scores
    PLAY_SCORE = "S601"
    CUMULATIVE = "S602"
    END_POINTS = "S603"
    RACK_PENALTY = "S604"
    WITHDRAWN_SCORE = "S605"
    CHALLENGE_BONUS = "S606"
    TIME_PENALTY_UNIT = "S607"
    SCORE_SIGN = "S608"
    MOSTLY_MISSCORED = "S609"
    # rules and end of game
    SCORELESS_END = "R701"
    END_ADJUSTMENT_MISSING = "R702"
    # words
    PHONY = "W801"
    VALID_WITHDRAWN = "W802"
    BONUS_AFTER_PHONY = "W803"
    LEXICON_MISFIT = "W804"
    OTHER_LEXICON = "W805"
    NOT_JUDGED = "W806"


def code_names() -> dict[str, str]:
    """Each constant of :class:`Code` by name -> its code."""
    return {k: v for k, v in vars(Code).items() if k.isupper()}


_RULES: list[Rule] = [
    # ---------------------------------------------------------------- file
    Rule(
        Code.UNREADABLE_FILE,
        "error",
        "file cannot be read",
        "The file does not exist, the operating system refused to read it, or it is not a "
        "record: only regular files are read (not folders, devices, FIFOs or sockets), of at "
        "most 16 MiB. A folder with no .gcg file and a pattern that matches none are named too.",
    ),
    Rule(
        Code.EMPTY_FILE,
        "error",
        "file is empty",
        "The file holds no pragma and no event, so there is no game to read.",
    ),
    Rule(
        Code.UNSUPPORTED_ENCODING,
        "error",
        "unsupported character encoding",
        "#character-encoding names an encoding gcgtools does not read. GCG files are UTF-8 or "
        "ISO-8859-1 (Latin-1); write one of those names.",
    ),
    Rule(
        Code.ENCODING_NOT_FIRST,
        "error",
        "encoding pragma is not the first line",
        "#character-encoding must be the very first line of the file (the GCG spec, Macondo and "
        "MAGPIE agree). Move it to line 1.",
    ),
    Rule(
        Code.UNDECODABLE,
        "error",
        "file cannot be decoded",
        "The bytes are not valid in the declared encoding.",
    ),
    Rule(
        Code.READ_AS_LATIN1,
        "warning",
        "read as Latin-1",
        "The file has no #character-encoding line and is not valid UTF-8, so it is read as "
        "ISO-8859-1 (Latin-1), the GCG spec's default, which keeps it byte for byte. Reported "
        "when other lines with accented letters are valid UTF-8 (a stray byte in a UTF-8 "
        "file): each of their letters is then read as two characters. The finding names the "
        "first byte that is not UTF-8; fix it, or declare the encoding on the first line.",
    ),
    Rule(
        Code.PROCESSING_FAILED,
        "error",
        "file could not be processed",
        "gcgtools failed on this file: an internal error, reported with its type and "
        "message, or a worker process that died on it (a crash, or the out-of-memory "
        "killer: 'killed by SIGKILL'), after which the file is left out. The other files "
        "of the batch are still processed. Please report it with the file.",
    ),
    # -------------------------------------------------------------- syntax
    Rule(
        Code.SYNTAX,
        "error",
        "line does not match the GCG syntax",
        "The line starts like an event or pragma but its tokens are not in GCG order: "
        ">nick: RACK POSITION WORD +SCORE CUMULATIVE. The message shows where the parser stopped "
        "and what it expected there.",
    ),
    Rule(
        Code.MALFORMED_RACK,
        "error",
        "malformed rack",
        "A rack holds letters of the tile set, ? for blanks and [XX] multi-letter tiles, nothing "
        "else.",
    ),
    Rule(
        Code.MALFORMED_PLAY,
        "error",
        "malformed play",
        "A play's word holds one character per square: a capital for a tile, lower case for a "
        "blank, '.' or the letter for a square already on the board, (..) for a run of board "
        "tiles, and [XX] for multi-letter tiles.",
    ),
    Rule(
        Code.MALFORMED_EXCHANGE,
        "error",
        "malformed exchange",
        "An exchange is -TILES with tiles from the rack, or -N with the number of tiles.",
    ),
    Rule(
        Code.STRAY_TEXT,
        "error",
        "stray text line",
        "A line that starts with neither # nor > is only allowed as the continuation of a #note.",
    ),
    Rule(
        Code.TEXT_AFTER_CUMULATIVE,
        "warning",
        "extra text after the cumulative score",
        "Old Quackle and WSC records list the cross-words after the cumulative score; the text is "
        "kept but not checked.",
    ),
    Rule(
        Code.UNKNOWN_PRAGMA,
        "warning",
        "unknown pragma",
        "The pragma is not part of the GCG format as gcgtools knows it. It is kept verbatim.",
    ),
    Rule(
        Code.SCORE_SIGN_FORM,
        "warning",
        "non-standard score sign",
        "Scores are written with a sign: +24, -10. Quackle's '+-6' and a missing '+' are read but "
        "are not canonical.",
    ),
    Rule(
        Code.NOTE_BEFORE_EVENTS,
        "warning",
        "note before the first event",
        "A #note annotates the event before it; one before any event belongs to no move. MAGPIE "
        "rejects it, Macondo drops it; gcgtools keeps it as a game note.",
    ),
    Rule(
        Code.COMMENTED_EVENT,
        "info",
        "commented-out event",
        "A line starting with #> is an event somebody commented out. It is kept and ignored.",
    ),
    Rule(
        Code.NUMBER_OUT_OF_RANGE,
        "error",
        "number out of range",
        "Scores, cumulatives and exchange counts are ASCII digits, at most five of them "
        "(-99,999 to 99,999; leading zeros aside). A longer number is a typo or garbage: the "
        "line is not read (its player's next cumulative and the turn order are not judged "
        "across it), rather than carrying a value no report or Parquet column can hold.",
    ),
    Rule(
        Code.LINE_TOO_LONG,
        "error",
        "line too long",
        "An event line (>...) holds at most 1,000 characters, any other line (a note, a "
        "pragma) at most 100,000. A longer line is not read, so that time and memory per "
        "line stay bounded whatever the input; it is kept as it is (write copies it) and an "
        "event line there leaves a gap in the replay, as any unreadable line does.",
    ),
    # -------------------------------------------------------------- header
    Rule(
        Code.DUPLICATE_NICK,
        "error",
        "duplicate nickname",
        "Two #player pragmas use the same nickname, so events cannot tell the players apart.",
    ),
    Rule(
        Code.DUPLICATE_NAME,
        "warning",
        "duplicate full name",
        "Two players have the same full name (MAGPIE rejects this).",
    ),
    Rule(
        Code.PLAYER_DEFINED_TWICE,
        "error",
        "player number defined twice",
        "The same #playerN pragma appears twice.",
    ),
    Rule(
        Code.PRAGMA_REPEATED,
        "error",
        "pragma repeated",
        "#title, #id, #lexicon, #board-layout, #tile-distribution and #game-type may appear once.",
    ),
    Rule(
        Code.HEADER_AFTER_EVENTS,
        "error",
        "header pragma after the first event",
        "#player, #title, #description, #id, #lexicon, #game-type, #board-layout and "
        "#tile-distribution belong before the first event.",
    ),
    Rule(
        Code.UNKNOWN_PLAYER,
        "error",
        "event by an unknown player",
        "The nickname of the event matches no #player pragma (nicknames are case-sensitive).",
    ),
    Rule(
        Code.EVENT_BEFORE_PLAYER,
        "error",
        "event before any player is declared",
        "Events refer to players by nickname, so the #player pragmas must come first.",
    ),
    Rule(
        Code.UNKNOWN_VARIANT,
        "warning",
        "unrecognised game variant",
        "#game-type names a variant gcgtools does not know. Known: classic, wordsmog (scored "
        "like classic; only which words are good differs), classic_super and wordsmog_super "
        "(the Super board and tiles unless #board-layout/#tile-distribution say otherwise), in "
        "any case, with '-' or '_'. An unknown variant is replayed with classic rules.",
    ),
    Rule(
        Code.UNKNOWN_RULES_NAME,
        "warning",
        "unknown tile set, board or lexicon",
        "The record names a tile distribution or board layout gcgtools has no table for; the "
        "default (English, standard board) is used.",
    ),
    Rule(
        Code.NO_FULL_NAME,
        "warning",
        "player without a full name",
        "#playerN should give a nickname and a full name; the nickname is used for both.",
    ),
    Rule(
        Code.MALFORMED_PRAGMA,
        "error",
        "malformed pragma",
        "The pragma's value does not have the required form (for example #id AUTHORITY ID).",
    ),
    Rule(
        Code.UNSUPPORTED_PRAGMA,
        "info",
        "pragma not supported",
        "The pragma is recognised but gcgtools does not act on it (for example #orientation).",
    ),
    Rule(
        Code.PLAYERS_FROM_EVENTS,
        "warning",
        "players taken from the events",
        "The record has no #player pragma at all. The replay takes the players from the "
        "nicknames of the events, in order of first appearance; add #player1 and #player2 "
        "lines (MAGPIE and Macondo reject such a record).",
    ),
    # --------------------------------------------------------------- order
    Rule(
        Code.OUT_OF_TURN,
        "error",
        "player moves out of turn",
        "Plays, passes and exchanges alternate between the players in order.",
    ),
    Rule(
        Code.AFTER_GAME_END,
        "error",
        "move after the end of the game",
        "The game ended (a player went out, or six scoreless turns) before this move.",
    ),
    Rule(
        Code.BONUS_WITHOUT_PLAY,
        "error",
        "challenge bonus without a play",
        "(challenge) +N rewards the player whose play was challenged; it must follow that play.",
    ),
    Rule(
        Code.BONUS_WRONG_PLAYER,
        "error",
        "challenge bonus for the wrong player",
        "The challenge bonus goes to the player who made the challenged play.",
    ),
    Rule(
        Code.WITHDRAWN_WITHOUT_PLAY,
        "error",
        "phony withdrawn without a play",
        "-- withdraws the play just made; it must follow a play by the same player. A -- that "
        "does not changes nothing: the play before it stays on the board and can still be "
        "withdrawn, and the totals stay as they were. When it is that player's turn (some "
        "programs write a turn lost to a challenge this way), the line counts as the turn "
        "and the next player moves next; otherwise it is ignored.",
    ),
    Rule(
        Code.WITHDRAWN_MISMATCH,
        "error",
        "phony withdrawn by the wrong player or with another rack",
        "The -- line repeats the player and the rack of the withdrawn play.",
    ),
    Rule(
        Code.END_LINE_TOO_EARLY,
        "error",
        "end-of-game line before the game is over",
        "End-rack points, own-rack penalties and time penalties come only after the game ended.",
    ),
    Rule(
        Code.END_POINTS_TWICE,
        "error",
        "end-of-game points given twice",
        "Each end-of-game adjustment appears once.",
    ),
    Rule(
        Code.TIME_PENALTY_TOO_EARLY,
        "error",
        "time penalty before the end-rack lines",
        "Time penalties come after all end-of-game rack lines.",
    ),
    Rule(
        Code.TIME_PENALTY_TWICE,
        "error",
        "time penalty given twice",
        "Each player has at most one time penalty line.",
    ),
    Rule(
        Code.EVENT_AFTER_FINAL_RACK,
        "error",
        "event after the final #rack",
        "#rack1/#rack2 at the end of a record give the racks of an unfinished game; no event may "
        "follow them.",
    ),
    Rule(
        Code.GAME_NOT_OVER,
        "info",
        "record ends before the game is over",
        "The bag is not empty or nobody went out: the record is incomplete.",
    ),
    Rule(
        Code.PASS_AFTER_OUT,
        "warning",
        "pass before the end-rack points",
        "Woogles-era files keep the opponent's final pass after the out-play; it is accepted and "
        "ignored.",
    ),
    Rule(
        Code.END_LINE_WRONG_PLAYER,
        "error",
        "end-of-game line for the wrong player",
        "(TILES) +N goes to the player who went out; RACK (RACK) -N to a player left with tiles.",
    ),
    # --------------------------------------------------------------- tiles
    Rule(
        Code.NOT_IN_RACK,
        "error",
        "tiles played are not in the rack",
        "Every tile placed or exchanged must be in the recorded rack.",
    ),
    Rule(
        Code.NOT_DRAWABLE,
        "error",
        "rack cannot be drawn from the unseen tiles",
        "The rack holds more of a letter than are left in the bag and the opponent's rack.",
    ),
    Rule(
        Code.NOT_A_TILE,
        "error",
        "letter not in the tile set",
        "The letter does not exist in the game's tile distribution.",
    ),
    Rule(
        Code.EXCHANGE_BAG_LOW,
        "error",
        "exchange with fewer than 7 tiles in the bag",
        "An exchange is allowed only while the bag holds at least 7 tiles.",
    ),
    Rule(
        Code.EXCHANGE_TOO_MANY,
        "error",
        "exchange of more tiles than the rack holds",
        "-N exchanges N tiles of the rack.",
    ),
    Rule(
        Code.BLANK_WITHOUT_LETTER,
        "error",
        "blank without a letter",
        "A blank placed on the board is written as the lower-case letter it stands for.",
    ),
    Rule(
        Code.END_TILES_MISMATCH,
        "error",
        "end-rack tiles do not match",
        "The tiles in (TILES) must be the opponent's unplayed tiles; RACK (RACK) repeats the same "
        "rack twice.",
    ),
    Rule(
        Code.TILES_OVERPLAYED,
        "warning",
        "more tiles played than the set holds",
        "Across the game, a letter was played more times than the tile set contains.",
    ),
    Rule(
        Code.RACK_TOO_BIG,
        "error",
        "rack holds more tiles than a rack can",
        "A rack holds at most the rule set's rack size (7 tiles; the rules of the game's "
        "board and tile set say otherwise only for variants). A longer rack cannot be the "
        "player's: the rack or the line is mistyped, and the move is not analysed.",
    ),
    # --------------------------------------------------------------- board
    Rule(
        Code.MISSES_CENTRE,
        "error",
        "first play misses the centre",
        "The first play of the game must cover the centre square.",
    ),
    Rule(
        Code.SINGLE_TILE_FIRST,
        "error",
        "first play of a single tile",
        "The first play must use at least two tiles.",
    ),
    Rule(
        Code.NOT_CONNECTED,
        "error",
        "play not connected",
        "Every later play touches a tile already on the board.",
    ),
    Rule(
        Code.OFF_BOARD,
        "error",
        "play runs off the board",
        "The word does not fit on the board from its start square. Where the play really "
        "went is unknown, so none of its tiles is put on the board (they still leave the rack "
        "and the bag), and no later play is judged by tiles that may not be there.",
    ),
    Rule(
        Code.NOT_WORD_START,
        "error",
        "start square is not the start of the word",
        "The coordinate names the square of the first letter of the whole word, including letters "
        "already on the board before it.",
    ),
    Rule(
        Code.BOARD_MISMATCH,
        "error",
        "letter does not match the board",
        "A played-through letter must equal the tile on that square. The play's new tiles "
        "are put on their own written squares (no score is computed for it).",
    ),
    Rule(
        Code.GAP_IN_PLAY,
        "error",
        "gap in the play",
        "A '.' marks a square already on the board; that square is empty. The play's new "
        "tiles are put on their own written squares (no score is computed for it).",
    ),
    Rule(
        Code.NO_TILE_PLACED,
        "error",
        "play places no tile",
        "A play puts at least one new tile on the board.",
    ),
    Rule(
        Code.WORD_CUT_SHORT,
        "warning",
        "word does not extend to its full length",
        "The tiles recorded do not cover the whole word: the board continues past its end.",
    ),
    Rule(
        Code.UNCERTAIN_SQUARE,
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
        Code.PLAY_SCORE,
        "error",
        "play score is wrong",
        "The recorded score of the play differs from the score computed from the board: letter "
        "premiums, then word premiums for new tiles, every cross-word, and the bingo bonus.",
    ),
    Rule(
        Code.CUMULATIVE,
        "error",
        "cumulative score is wrong",
        "The cumulative is the player's total after the event. Later lines are judged from the "
        "recorded total, so one mistake is reported once.",
    ),
    Rule(
        Code.END_POINTS,
        "error",
        "end-rack points are wrong",
        "Standard rules give the player who went out twice the value of the opponents' racks; "
        "international rules give the value once.",
    ),
    Rule(
        Code.RACK_PENALTY,
        "error",
        "own-rack penalty is wrong",
        "RACK (RACK) -N takes off the value of the player's own unplayed tiles.",
    ),
    Rule(
        Code.WITHDRAWN_SCORE,
        "error",
        "withdrawn score does not cancel the play",
        "-- -N takes back exactly the withdrawn play's score.",
    ),
    Rule(
        Code.CHALLENGE_BONUS,
        "warning",
        "unusual challenge bonus",
        "The challenge bonus is 0, 5 (or 5 per word) or 10 points depending on the rules.",
    ),
    Rule(
        Code.TIME_PENALTY_UNIT,
        "warning",
        "time penalty is not a multiple of 10",
        "Time penalties are 10 points per started minute over time.",
    ),
    Rule(
        Code.SCORE_SIGN,
        "error",
        "score has the wrong sign",
        "Plays, bonuses and end-rack points are positive; penalties and withdrawals negative.",
    ),
    Rule(
        Code.MOSTLY_MISSCORED,
        "warning",
        "most plays misscored: another board or tile values?",
        "At least three in five of the record's plays (five or more) score otherwise than the "
        "replay computes. One wrong score is a mistake; most of them usually mean the game was "
        "played on another board or with other tile values (an older Quackle set-up, a "
        "teaching variant). When a known board and tile set fit the scores, the finding names "
        "them; otherwise give the record's own with --board FILE (a grid of premium symbols) "
        "and --tiles FILE ('letter count value' lines): see docs/formats.md, board and tile files.",
    ),
    # --------------------------------------------------------------- rules
    Rule(
        Code.SCORELESS_END,
        "info",
        "game ended by six scoreless turns",
        "Six scoreless turns in a row end the game; each player loses the value of their rack.",
    ),
    Rule(
        Code.END_ADJUSTMENT_MISSING,
        "warning",
        "end-of-game adjustment missing",
        "The game is over but the record has no end-rack line.",
    ),
    # ------------------------------------------- words (analysis with a lexicon)
    Rule(
        Code.PHONY,
        "info",
        "phony stood unchallenged",
        "A play formed a word that is not in the lexicon used for the analysis, and the play "
        "stood: no --, no challenge bonus. The message names the words. Only reported when "
        "a lexicon is given (gcgtools analyse, annotate --only analysis); a record played "
        "with another lexicon than the one given reports the words the two lists disagree on.",
    ),
    Rule(
        Code.VALID_WITHDRAWN,
        "warning",
        "valid play withdrawn",
        "A play was taken off the board with -- (a successful challenge) although every word "
        "it formed is in the lexicon used for the analysis: either the challenge was ruled "
        "wrongly, the record was played with another lexicon, or the -- line is a mistake.",
    ),
    Rule(
        Code.BONUS_AFTER_PHONY,
        "warning",
        "challenge bonus after a phony",
        "A challenge bonus line (the challenger lost) follows a play that formed a word not in "
        "the lexicon used for the analysis. Under that lexicon the challenge should have "
        "succeeded and the play been withdrawn (--).",
    ),
    Rule(
        Code.LEXICON_MISFIT,
        "warning",
        "lexicon does not fit the record's tiles",
        "The lexicon used for the analysis is for another alphabet than the record's tile "
        "set: its name implies other tiles (ENABLE, CSW, NWL are English; RD German; FISE "
        "Spanish), or its words never use letters the tile set has tiles of (an English list "
        "under German tiles never uses Ä, Ö, Ü). Its phonies and best moves then mean "
        "nothing for this game. Give the lexicon the game was played with (--lexicon FILE), "
        "or the right tile set (--tiles).",
    ),
    Rule(
        Code.OTHER_LEXICON,
        "info",
        "another lexicon than the record names",
        "The record names its lexicon (#lexicon NAME) and the analysis used another one "
        "(--lexicon FILE). Words the two lists disagree on are reported as phonies (W801) or "
        "as valid plays withdrawn (W802).",
    ),
    Rule(
        Code.NOT_JUDGED,
        "warning",
        "turn not judged",
        "The turns were to be judged (--depth sim or full) and this one could not be: the "
        "position before it could not be rebuilt from the record (an unknown tile set or "
        "board, a tile the tile set does not have), or it has another player to move than "
        "the turn's, or the rack the record shows is not the whole rack. The static analysis "
        "of the turn stands; it has no judgement. The message says what went wrong.",
    ),
]

# Per code: an example of record lines that get the finding (the line reported last), and
# how to fix it. `gcgtools explain CODE` prints both; a test checks every code has them.
_EXAMPLES: dict[str, tuple[str, str]] = {
    Code.UNREADABLE_FILE: (
        "gcgtools validate games/missing.gcg",
        "Check the path and the file's permissions; name .gcg files, folders or globs.",
    ),
    Code.EMPTY_FILE: (
        "(a file of zero bytes, or only blank lines)",
        "Write the game into the file, or leave the empty file out.",
    ),
    Code.UNSUPPORTED_ENCODING: (
        "#character-encoding ASCII",
        "Write '#character-encoding UTF-8' (or ISO-8859-1) and save the file in that encoding.",
    ),
    Code.ENCODING_NOT_FIRST: (
        "#player1 Ann Ann Smith\n#character-encoding UTF-8",
        "Move the #character-encoding line to line 1.",
    ),
    Code.UNDECODABLE: (
        "#character-encoding UTF-8\n#player1 Zo\xe9 (saved as Latin-1 byte 0xE9)",
        "Save the file in the declared encoding, or declare the one it is saved in.",
    ),
    Code.SYNTAX: (
        ">Ann: AEINRST 8H +66 RETAINS 66",
        "Put the tokens in GCG order: >Ann: AEINRST 8H RETAINS +66 66.",
    ),
    Code.MALFORMED_RACK: (
        ">Ann: AEI3RST 8H RETAINS +66 66",
        "Write the rack with letters of the tile set, ? for blanks: AEINRST.",
    ),
    Code.MALFORMED_PLAY: (
        ">Ann: AEINRST 8H RET*INS +66 66",
        "Write one character per square: a capital for a tile, lower case for a blank, "
        "'.' for a square already on the board.",
    ),
    Code.MALFORMED_EXCHANGE: (
        ">Ann: AEINRST -A.E +0 66",
        "Write the tiles exchanged (-AE) or how many (-2).",
    ),
    Code.STRAY_TEXT: (
        ">Ann: AEINRST 8H RETAINS +66 66\nnice bingo!",
        "Make the text a note: #note nice bingo!",
    ),
    Code.TEXT_AFTER_CUMULATIVE: (
        ">Ann: AEINRST 8H RETAINS +66 66 RETAINS",
        "Nothing to fix; to drop the cross-words, `gcgtools write --normalise`.",
    ),
    Code.UNKNOWN_PRAGMA: (
        "#venue Club Hall",
        "Use a GCG pragma (#description Club Hall), or keep it: it is copied as it is.",
    ),
    Code.SCORE_SIGN_FORM: (
        ">Ann: AEINRST 8H RETAINS 66 66",
        "Sign the score: +66 (`gcgtools write --normalise` does it).",
    ),
    Code.NOTE_BEFORE_EVENTS: (
        "#player2 Bob Bob Brown\n#note Round 3, table 1",
        "Write game notes as #description, or put the note after the event it is about.",
    ),
    Code.COMMENTED_EVENT: (
        "#>Ann: AEINRST 8H RETAINS +66 66",
        "Nothing to fix; delete the line if the event is not part of the game.",
    ),
    Code.DUPLICATE_NICK: (
        "#player1 Ann Ann Smith\n#player2 Ann Ann Jones",
        "Give each player a different nickname: #player2 AnnJ Ann Jones.",
    ),
    Code.DUPLICATE_NAME: (
        "#player1 Ann Ann Smith\n#player2 Bob Ann Smith",
        "Write each player's own full name.",
    ),
    Code.PLAYER_DEFINED_TWICE: (
        "#player1 Ann Ann Smith\n#player1 Bob Bob Brown",
        "Number the players 1, 2, ...: #player2 Bob Bob Brown.",
    ),
    Code.PRAGMA_REPEATED: ("#lexicon NWL23\n#lexicon CSW21", "Keep one of the two lines."),
    Code.HEADER_AFTER_EVENTS: (
        ">Ann: AEINRST 8H RETAINS +66 66\n#title Club night",
        "Move the header line above the first event.",
    ),
    Code.UNKNOWN_PLAYER: (
        "#player1 Ann Ann Smith\n>Anne: AEINRST 8H RETAINS +66 66",
        "Write the nickname of a #player line, with the same case: >Ann:.",
    ),
    Code.EVENT_BEFORE_PLAYER: (
        ">Ann: AEINRST 8H RETAINS +66 66\n#player1 Ann Ann Smith",
        "Put the #player lines before the first event.",
    ),
    Code.UNKNOWN_VARIANT: ("#game-type speedrun", "Write classic or wordsmog, or remove the line."),
    Code.UNKNOWN_RULES_NAME: (
        "#tile-distribution klingon",
        "Name a known tile set (english, german, ...) or pass --tiles/--board.",
    ),
    Code.NO_FULL_NAME: ("#player1 Ann", "Add the full name: #player1 Ann Ann Smith."),
    Code.MALFORMED_PRAGMA: (
        "#id 12345",
        "Give the authority and the identifier: #id io.woogles 12345.",
    ),
    Code.UNSUPPORTED_PRAGMA: ("#orientation rotated", "Nothing to fix: the line is kept."),
    Code.PLAYERS_FROM_EVENTS: (
        ">Ann: AEINRST 8H RETAINS +66 66\n>Bob: DEIMOQU J5 QUO.E +16 16",
        "The file has no #player line: add #player1 Ann Ann Smith and #player2 Bob Bob Brown "
        "at the top.",
    ),
    Code.OUT_OF_TURN: (
        ">Ann: AEINRST 8H RETAINS +66 66\n>Ann: DEGLOR? K6 Lo.D +4 70",
        "Write the missing turn of the other player (a pass: >Bob: RACK - +0 0), or fix "
        "the nickname.",
    ),
    Code.AFTER_GAME_END: (
        ">Ann: EIR 3A RIE +9 402\n>Bob: AEG 2B AGE +12 380",
        "Remove the move, or fix the earlier line that ended the game.",
    ),
    Code.BONUS_WITHOUT_PLAY: (
        ">Bob: EIMQRST (challenge) +5 13  (no play before it)",
        "Put the bonus right after the challenged play, or remove it.",
    ),
    Code.BONUS_WRONG_PLAYER: (
        ">Ann: AEINRST 8H RETAINS +66 66\n>Bob: DEIMOQU (challenge) +5 5",
        "Give the bonus to the player who made the play: >Ann: AEINRST (challenge) +5 71.",
    ),
    Code.WITHDRAWN_WITHOUT_PLAY: (
        ">Ann: AEINRST -- -66 0  (no play before it)",
        "Put the -- line right after the withdrawn play, or remove it.",
    ),
    Code.WITHDRAWN_MISMATCH: (
        ">Ann: AEINRST 8H RETAINS +66 66\n>Ann: AEINRSX -- -66 0",
        "Repeat the player and rack of the play: >Ann: AEINRST -- -66 0.",
    ),
    Code.END_LINE_TOO_EARLY: (
        ">Ann: AEGT (OPR) +10 90  (the bag still has tiles)",
        "Remove the line, or add the moves that end the game before it.",
    ),
    Code.END_POINTS_TWICE: (
        ">Ann: (OPR) +10 402\n>Ann: (OPR) +10 412",
        "Keep one of the two lines.",
    ),
    Code.TIME_PENALTY_TOO_EARLY: (
        ">Bob: EIMQRST (time) -10 -15\n>Bob: EIMQRST (EIMQRST) -18 -33",
        "Put the time penalty after the end-rack lines.",
    ),
    Code.TIME_PENALTY_TWICE: (
        ">Bob: (time) -10 380\n>Bob: (time) -10 370",
        "Keep one line with the whole penalty.",
    ),
    Code.EVENT_AFTER_FINAL_RACK: (
        "#rack1 AEINRST\n>Ann: AEINRST 8H RETAINS +66 66",
        "Move #rack1/#rack2 to the end, or remove them.",
    ),
    Code.GAME_NOT_OVER: (
        "(the record stops with tiles in the bag)",
        "Nothing to fix if the game was stopped; otherwise add the missing moves.",
    ),
    Code.PASS_AFTER_OUT: (
        ">Ann: EIR 3A RIE +9 402\n>Bob: AEG - +0 380\n>Ann: (AEG) +8 410",
        "Nothing to fix; `gcgtools write --normalise` keeps it, others may drop it.",
    ),
    Code.END_LINE_WRONG_PLAYER: (
        ">Ann: EIR 3A RIE +9 402\n>Bob: (AEG) +8 388",
        "Credit the points to the player who went out: >Ann: (AEG) +8 410.",
    ),
    Code.NOT_IN_RACK: (
        ">Ann: AEINRST 8H RETAINED +70 70",
        "Write the rack the player had, or the word they played.",
    ),
    Code.NOT_DRAWABLE: (
        ">Ann: EINSTZZ 8G ZINS +26 26  (the English set has one Z)",
        "Correct the rack: it can only hold tiles not yet on the board.",
    ),
    Code.NOT_A_TILE: (
        ">Ann: AEINRS\xdf 8H RETAINS +66 66  (English tiles)",
        "Use letters of the tile set, or choose the set with --tiles or #tile-distribution.",
    ),
    Code.EXCHANGE_BAG_LOW: (
        ">Ann: AEGIORT -AGT +0 81  (5 tiles left in the bag)",
        "Write the move the player made (a pass: -).",
    ),
    Code.EXCHANGE_TOO_MANY: (
        ">Ann: AEIRT -7 +0 81",
        "Write how many tiles were exchanged, at most the rack's: -5.",
    ),
    Code.BLANK_WITHOUT_LETTER: (
        ">Ann: ADEGL?R K6 L?.D +4 70",
        "Write the blank as the lower-case letter it stands for: Lo.D.",
    ),
    Code.END_TILES_MISMATCH: (
        ">Ann: EIR 3A RIE +9 402\n>Ann: (AGX) +22 424  (Bob held AEG)",
        "Write the tiles the opponent was left with: (AEG).",
    ),
    Code.TILES_OVERPLAYED: (
        ">Bob: EEEEEEE ...  (a thirteenth E over the game)",
        "Find the rack or play with a wrong letter (often a blank written in capitals).",
    ),
    Code.RACK_TOO_BIG: (
        ">Ann: AEINRSTX 8H RETAINS +66 66",
        "Write the seven tiles the player held (a tile too many is often a typo).",
    ),
    Code.MISSES_CENTRE: (
        ">Ann: AEINRST 7A RETAINS +66 66",
        "Correct the coordinate so that the word covers 8H: 8B, 8H or H8 ...",
    ),
    Code.SINGLE_TILE_FIRST: (
        ">Ann: AEINRST 8H A +2 2",
        "Correct the first play: it uses at least two tiles.",
    ),
    Code.NOT_CONNECTED: (
        ">Ann: AEINRST 8H RETAINS +66 66\n>Bob: DEIMOQU A1 QUOD +48 48",
        "Correct the coordinate: the play touches a tile on the board.",
    ),
    Code.OFF_BOARD: (
        ">Bob: DEIMOQU 15L QUOTED +30 30",
        "Correct the coordinate or the word: it must fit on the board.",
    ),
    Code.NOT_WORD_START: (
        ">Bob: ADEIMOU 8I EAT +3 3  (8H holds R: the word is REAT...)",
        "Start at the first letter of the whole word and mark the board letters: 8H .EAT "
        "or 8H (R)EAT.",
    ),
    Code.BOARD_MISMATCH: (
        ">Bob: DEMOQUU J5 QUID +14 14  (J7 holds A, not I)",
        "Correct the word or the coordinate so that played-through letters match.",
    ),
    Code.GAP_IN_PLAY: (
        ">Bob: DEIMOQU J5 QU.E +14 14  (J7 is empty)",
        "Write the letter the player put there, or correct the coordinate.",
    ),
    Code.NO_TILE_PLACED: (
        ">Ann: AEINRST 8H RETAINS +66 66\n>Bob: DEIMOQU 8H ....... +0 0",
        "Write the tiles played; a turn without tiles is a pass: -.",
    ),
    Code.WORD_CUT_SHORT: (
        ">Bob: DEIMOQU 8A QUOD +17 17  (8E holds S: the word is QUODS)",
        "Write the whole word, board letters included: 8A QUOD. or 8A QUOD(S).",
    ),
    Code.PLAY_SCORE: (
        ">Ann: ABDENSY 3H BENDAY +14 36",
        "Write the computed score (here +41), or fix the coordinate, word or board "
        "before it; `gcgtools fix` rewrites the score and the cumulatives.",
    ),
    Code.CUMULATIVE: (
        ">Bob: AEIORTT 10E OTTER +32 238  (216 + 32 = 248)",
        "Write the running total; `gcgtools fix` rewrites the cumulatives.",
    ),
    Code.END_POINTS: (
        ">Ann: (AEG) +4 410  (AEG is worth 4: standard rules give +8)",
        "Write twice the value of the opponent's tiles (international rules: once).",
    ),
    Code.RACK_PENALTY: (
        ">Bob: AEG (AEG) -5 380  (AEG is worth 4)",
        "Write minus the value of the player's own tiles: -4.",
    ),
    Code.WITHDRAWN_SCORE: (
        ">Ann: AEINRST 8H RETAINS +66 66\n>Ann: AEINRST -- -60 6",
        "Take back exactly the play's score: -- -66 0.",
    ),
    Code.CHALLENGE_BONUS: (
        ">Ann: AEINRST (challenge) +7 73",
        "Write the bonus the rules give (0, 5 or 10), or pass --challenge-bonus.",
    ),
    Code.TIME_PENALTY_UNIT: (
        ">Bob: (time) -15 365",
        "Write 10 points per started minute over time: -20 for 1 to 2 minutes.",
    ),
    Code.SCORE_SIGN: (">Ann: AEINRST 8H RETAINS -66 -66", "Write the sign the event takes: +66."),
    Code.SCORELESS_END: (
        ">Ann: AEIRSTT - +0 300  (the sixth scoreless turn in a row)",
        "Nothing to fix: the game ends here; each player's rack is taken off their score.",
    ),
    Code.END_ADJUSTMENT_MISSING: (
        ">Ann: EIR 3A RIE +9 402  (Ann went out; the file ends here)",
        "Add the end-rack line: >Ann: (AEG) +8 410.",
    ),
}
_EXAMPLES.update({
    Code.PROCESSING_FAILED: ("(any record gcgtools itself fails on; the message names the error)",
             "Report it with the file; the other files of the batch are still checked."),
    Code.READ_AS_LATIN1: (
             "#player1 Zo\xe9 Zo\xe9 Martin  (saved as Latin-1, no #character-encoding line)",
             "Save the file as UTF-8, or write '#character-encoding ISO-8859-1' on line 1."),
    Code.NUMBER_OUT_OF_RANGE: (">Ann: AEINRST 8H RETAINS +66 6600000",
             "Correct the number: scores and cumulatives have at most five digits."),
    Code.LINE_TOO_LONG: (
             ">Ann: AEINRST 8H RETAINS +66 66 xxxxxxxx...  (more than 1,000 characters)",
             "Cut the line to the event; put long comments in #note lines."),
    Code.UNCERTAIN_SQUARE: (">Bob: DEIMOQU 15L QUOTED +30 30\n>Ann: AEINRST O9 RETAINS +70 96",
             "Correct the coordinate of the earlier play (its B504 or B508 finding); this "
             "play is then checked as usual."),
    Code.MOSTLY_MISSCORED: (
             ">Ann: AEINRST 8D RETAINS +74 74  (the record's board has other premiums)",
             "Replay with the board and tiles the game used: --board FILE --tiles FILE "
             "(or the pair the finding names)."),
    Code.PHONY: (">Ann: AEINRST 8H RETAINZ +66 66  (RETAINZ is not in the lexicon)",
             "Nothing to fix in the record; check the lexicon given, or study the phony."),
    Code.VALID_WITHDRAWN: (">Ann: AEINRST 8H RETAINS +66 66\n>Ann: AEINRST -- -66 0",
             "Check the lexicon the game was played with; if the challenge was ruled wrongly, "
             "nothing to fix in the record."),
    Code.BONUS_AFTER_PHONY: (">Ann: AEINRST 8H RETAINZ +66 66\n>Ann: AEINRST (challenge) +5 71",
             "Check the lexicon the game was played with; under the one given the play "
             "should have been withdrawn (--)."),
    Code.LEXICON_MISFIT: (
             "#lexicon RD28\n#tile-distribution german  (analysed with --lexicon ENABLE.kwg)",
             "Give the lexicon of the game's language: --lexicon RD28.kwg, or --lexica DIR "
             "holding it."),
    Code.OTHER_LEXICON: ("#lexicon CSW21  (analysed with --lexicon NWL23.kwg)",
             "Nothing to fix in the record; give --lexicon CSW21.kwg to judge the words by "
             "the list the game was played with."),
    Code.NOT_JUDGED: (">Ann: AEINRST 8D RETAINS +66 66\n>Ann: DGOOWEI 9C WOOD +20 86  "
                      "(Ann again: Bob is to move)",
             "Fix the order of the turns (gcgtools validate names the problem), then judge "
             "the record again."),
})  # fmt: skip
# a code without its texts still loads (tests/cli/test_cli_core.py requires them all)
_RULES = [replace(r, example=_EXAMPLES.get(r.code, ("", ""))[0],
                  fix=_EXAMPLES.get(r.code, ("", ""))[1]) for r in _RULES]  # fmt: skip

RULES: dict[str, Rule] = {r.code: r for r in _RULES}


def _codes(prefixes: Iterable[str]) -> list[str]:
    """Upper-cased prefixes, comma-separated lists split; ValueError for a prefix that
    matches no code of the catalogue."""
    out = []
    for item in prefixes:
        for prefix in item.split(","):
            prefix = prefix.strip().upper()
            if not prefix:
                continue
            if not any(code.startswith(prefix) for code in RULES):
                raise ValueError(f"{prefix!r} matches no finding code (`gcgtools rules`)")
            out.append(prefix)
    return out


def code_filter(
    select: Iterable[str] | None = None, ignore: Iterable[str] | None = None
) -> Callable[[str], bool]:
    """A test of finding codes, as a linter's ``--select``/``--ignore`` (codes or prefixes
    such as ``S6`` or ``T``, comma-separated or repeated): a code passes when it starts
    with a selected prefix (every code when none is selected) and with no ignored one,
    the longer matching prefix winning (``--select S --ignore S602`` keeps S601, and
    ``--ignore S --select S602`` keeps S602). ValueError for a prefix matching no code."""
    chosen = _codes(select or [])
    dropped = _codes(ignore or [])

    def keep(code: str) -> bool:
        sel = max((len(p) for p in chosen if code.startswith(p)), default=-1 if chosen else 0)
        ign = max((len(p) for p in dropped if code.startswith(p)), default=-1)
        return sel >= 0 and sel > ign if ign >= 0 else sel >= 0

    return keep


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
