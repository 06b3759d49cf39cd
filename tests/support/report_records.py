"""Hand-made GCG records with statistics worked out by hand, for the report tests.

GAME_A (standard rules, ends after six scoreless turns), turn by turn:

 T1  Alice RETAINS 8H: R on H8 (DW) + I on L8 (DL): (7 + 1) x 2 + 50 = 66 (bingo)   66
 T2  Bob   QUOTE J5 down through T: Q10 + U on J6 (TL) 3 + O1 T1 E1 = 16            16
     Bob   -- : QUOTE withdrawn, back to 0 (Bob's phony, Alice won the challenge)    0
 T3  Alice LoAD K6 down through A, blank as o: 1 + 0 + 1 + 2 = 4                      70
 T4  Bob   UNDO M7 down through N: U on M7 (DL) 2 + N1 + D on M9 (DL) 4 + O1 = 8      8
     Bob   (challenge) +5: Alice lost a challenge (bonus rule)                       13
 T5  Alice VETS N5 down to S: V4 + E on N6 (TL) 3 + T1 + S1 = 9; cross UT 1+1 = 2 -> 11  81
 T6  Bob   pass, #unsuccessful-challenge (a lost double challenge)                   13
 T7  Alice exchanges AGT                                                              81
 T8  Bob pass, T9 Alice pass, T10 Bob pass, T11 Alice pass: six scoreless turns (T6-T11)
     Bob   EIMQRST (EIMQRST): 1+1+3+10+1+1+1 = -18                                    -5
     Alice EINORSU (EINORSU): -7                                                      74
     Bob   (time) -10                                                                -15

Alice: 74, 6 turns, 3 plays for 66 + 4 + 11 = 81 points, 1 bingo, best play 66 RETAINS,
1 exchange, 2 passes, 0 phonies, challenges won 1, lost 1. Bob: -15, 5 turns, 1 play that
stood (8, UNDO), 0 bingos, 3 passes, 1 phony, challenges won 0, lost 1, time penalty -10.
Winner Alice by 89. Game: 11 turns, 1 exchange, 5 passes, 1 phony, 1 challenge bonus,
1 lost double challenge, 3 challenges, 1 time penalty.

GAME_TIE (standard rules): Alice BOTH 8H = (3+1+1+4) x 2 = 18; Bob JO I7 down, J on I7
(DL) = 16 + 1 = 17; six passes; Alice loses 7 (AEILNRS), Bob 6 (AEINTU?): 11 - 11, a tie.

GAME_HOME (for --rules home): the same two plays, but the game ends after every player
passed twice (four passes); 11 - 11 again, and the tie is broken by the scores before
the adjustments, 18 to 17: Alice wins.
"""

GAME_A = """\
#character-encoding UTF-8
#id org.example game-a
#title Club night, round 1
#lexicon NWL23
#player1 Alice Alice Adams
#player2 Bob Bob Brown
>Alice: AEINRST 8H RETAINS +66 66
>Bob: DEIMOQU J5 QUO.E +16 16
>Bob: DEIMOQU -- -16 0
>Alice: ADEGL?R K6 Lo.D +4 70
>Bob: DEIMOQU M7 U.DO +8 8
>Bob: EIMQRST (challenge) +5 13
>Alice: AEGRTTV N5 VET. +11 81
>Bob: EIMQRST - +0 13
#note #unsuccessful-challenge
>Alice: AEGIORT -AGT +0 81
>Bob: EIMQRST - +0 13
>Alice: EINORSU - +0 81
>Bob: EIMQRST - +0 13
>Alice: EINORSU - +0 81
>Bob: EIMQRST (EIMQRST) -18 -5
>Alice: EINORSU (EINORSU) -7 74
>Bob: EIMQRST (time) -10 -15
"""

_TIE_START = """\
#player1 Alice Alice Adams
#player2 Bob Bob Brown
>Alice: ABEHLOT 8H BOTH +18 18
>Bob: AEIJNOT I7 J. +17 17
"""
_PASSES = """\
>Alice: AEILNRS - +0 18
>Bob: AEINTU? - +0 17
"""
_PENALTIES = """\
>Alice: AEILNRS (AEILNRS) -7 11
>Bob: AEINTU? (AEINTU?) -6 11
"""
GAME_TIE = _TIE_START + _PASSES * 3 + _PENALTIES
GAME_HOME = _TIE_START + _PASSES * 2 + _PENALTIES

# Alice plays RETAINS (66, bingo) and has it withdrawn; Bob then bingos with TIRADES at 8H:
# T on H8 (DW) + D on L8 (DL): (1+1+1+1+4+1+1) x 2 + 50 = 70.
PHONY_BINGO = """\
#player1 Alice Alice
#player2 Bob Bob
>Alice: AEINRST 8H RETAINS +66 66
>Alice: AEINRST -- -66 0
>Bob: ADEIRST 8H TIRADES +70 70
"""

# No line the parser can read: the file is unreadable (exit code 2).
BROKEN = """\
>Alice AEINRST 8H RETAINS +66 66
>Bob DEIMOQU J5 QUO.E +16 16
"""


def write(folder, name: str, text: str):
    """Write ``text`` to ``folder/name`` and return the path as a string."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)
