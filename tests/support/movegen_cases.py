"""Small lexicons, boards and positions shared by the move generator's tests."""

from __future__ import annotations

from gcgtools.lexicon import Kwg, Lexicon, alphabet_of, build_nodes
from gcgtools.rules import BoardLayout, board_layout, tile_set

ENGLISH = tile_set("english")


STANDARD = board_layout("CrosswordGame")


def small_lexicon(words: list[str], tiles: str = "english") -> Lexicon:
    alphabet = alphabet_of(tiles)
    encoded = [alphabet.encode(w) for w in words]
    assert all(e is not None for e in encoded)
    kwg = Kwg(build_nodes([e for e in encoded if e is not None]), alphabet)
    return Lexicon(kwg, name="test", source="test words")


def layout_of(name: str, rows: list[str]) -> BoardLayout:
    return BoardLayout(name, len(rows), tuple(rows))


MINI9 = layout_of(
    "Mini9",
    [
        "=   '   =",
        ' -  "  - ',
        "  -   -  ",
        "'  ' '  '",
        '"   -   "',
        "'  ' '  '",
        "  -   -  ",
        ' -  "  - ',
        "=   '   =",
    ],
)


SMALL_WORDS = (
    "AA AB AD AE AG AH AI AL AM AN AR AS AT AW AX AY BA BE BI BO BY DA DE DO ED EF EH EL EM "
    "EN ER ES ET EX FA FE GO HA HE HI HM HO ID IF IN IS IT JO KA KI LA LI LO MA ME MI MO MU "
    "MY NA NE NO NU OD OE OF OH OI OM ON OP OR OS OW OX OY PA PE PI QI RE SH SI SO TA TI TO "
    "UH UM UN UP US UT WE WO XI XU YA YE YO ZA "
    "CAT CATS ACT ACTS SCAT TACO COAT COATS TEA TEAS EAT EATS SEA SET SAT ATE ETA TAE "
    "QUIT QUITE QUIET QUA AQUA RAT RATS STAR ARTS TSAR TARS ART ARE EAR EARS ERA ERAS "
    "RATE RATES TEAR TEARS STARE ASTER TARE TARES REST ERST RETS TRES SEAT EAST TEAT "
    "ZA ZAS ADZ ZED ZEDS DOZE DOZES OX BOX BOXES FOX TAX WAX SAX AXE AXES EXAM "
    "ON ONE ONES NOSE NOTE NOTES TONE TONES STONE ONSET SETON SNORT TERN TERNS RENT "
    "INERT INTER NITER TRINE RETAINS RETINAS STAINER NASTIER ANESTRI RATINES"
).split()


MAGPIE_README_CGP = (
    "15/3Q7U3/3U2TAURINE2/1CHANSONS2W3/2AI6JO3/DIRL1PO3IN3/E1D2EF3V4/F1I2p1TRAIK3/"
    "O1L2T4E4/ABy1PIT2BRIG2/ME1MOZELLE5/1GRADE1O1NOH3/WE3R1V7/AT5E7/G6D7 ENOSTXY/ACEISUY "
    "356/378 0 lex NWL20;"
)
