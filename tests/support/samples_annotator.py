"""Small hand-written records shared by the writer, annotator, fixer, SVG and HTML tests.

Every score here was worked out by hand from the standard board and English tile values
(and agrees with the replay: ``test_sample_is_correct`` in test_fix.py checks it).
"""

from __future__ import annotations

# 8G HEX: H4 E1 X8 = 13, H8 is a double word: 26.
# I7 O.IDES (through X): O on I7 (DL) 2, X 8, I on I9 (DL) 2, D 2, E 1, S 1 = 16.
# 12C MATURe. (through S, blank e): M3 A1 on D12 (DW) T1 U1 R1 e0 S1 = 8 x 2 = 16.
# 13B FEW: F4 E1 on C13 (DW) W4 = 18; ME = (3 + 1) x 2 = 8; AW = 1 + 4 = 5; total 31.
GAME = """\
#character-encoding UTF-8
#player1 Ann Ann Smith
#player2 Bob Bob Jones
>Ann: AEHMRTX 8G HEX +26 26
>Bob: ADEIORS I7 O.IDES +16 16
#note nice fishing
second line of the note
>Ann: AEMRTU? 12C MATURe. +16 42
#comment a comment, not a note
>Bob: AEIRRUV -UV +0 16
>Ann: EFNOORW 13B FEW +31 73
"""

# 8D NASTIER: N on D8 (DL) 2 + A S T I E R 6 = 8, H8 double word: 16, bingo +50 = 66.
BINGO = """\
#player1 Ann Ann Smith
#player2 Bob Bob Jones
>Ann: AEINRST 8D NASTIER +66 66
"""
