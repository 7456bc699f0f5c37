"""Named radar sets a class file may give, and the category each counts as (data).

The gun-era rulesets know two kinds of radar, by the United States names the NAVAL
ACTION text uses: an early set (SC, 20,000 yd there) and a later surface-search set
(SG, 30,000 yd); Surface Action rates the same two. A British set is entered by its own
name (``{type: Type 271, fitted: ...}``) and counts as the category below: a centimetric
surface-warning set as SG, a metric air-warning or a gunnery set as SC. The file keeps
the name (``set``) for the reader; every ruleset reads the category (``type``).
"""

from __future__ import annotations

from dataclasses import dataclass

CATEGORIES = ("SC", "SG")
"""The categories every gun-era ruleset maps to its own radar values."""


@dataclass(frozen=True)
class RadarSet:
    """One named set: the category it counts as, what it was, and who says so."""

    category: str
    role: str
    source: str


_TYPE_79 = ("radartutorial.eu, 'Type 79' (https://www.radartutorial.eu/19.kartei/"
            "11.ancient4/karte026.en.html): VHF early-warning set, 43 MHz, range 40 NM; "
            "three fitted by September 1939; its experience led to the Type 279")
_DEIGHTON = ("Len Deighton, 'Blood, Tears and Folly', ch. 'Boffins join the navy' "
             "(https://knigalit.ru/avtori/lendeighton/book1133267/chitat/?page=29): Type 79 "
             "sets for aircraft warning from 1939 (Rodney, Sheffield); two hundred Type 284 "
             "50-cm gun-laying sets ordered in May 1940; Naiad's Type 279 in January 1941")
_TYPE_281 = ("Wikipedia, 'Type 281 radar' (https://en.wikipedia.org/wiki/Type_281_radar): "
             "early-warning set replacing the Type 79, prototype October 1940; aircraft to "
             "110 nmi, surface targets to 12 nmi with the short pulse")
_TYPE_271 = ("Bournemouth University Virtual Museum of Electronics, 'The Type 271 Radar' "
             "(https://histru.bournemouth.ac.uk/CHiDE/Virtual_Museum_of_Electronics/"
             "Type271.htm): the first 10 cm (centimetric) surface set, tried in HMS Orchis "
             "in 1941")
_TYPE_277 = ("Knowpia copy of Wikipedia, 'Type 277 radar' (https://www.knowpia.com/"
             "knowpedia/Type_277_radar): surface search and secondary air warning from 1943, "
             "a development of the Types 271/272/273; the Type 276 its destroyer version, "
             "the Type 293 its air-warning version")
_TYPE_291 = ("knowledgr copy of German Wikipedia, 'Typ 291 Radar' (http://de.knowledgr.com/"
             "16201049/Typ291Radar): search set for destroyers and smaller ships from 1942")

RADAR_SETS: dict[str, RadarSet] = {
    "Type 79": RadarSet("SC", "metric air warning (1938-40)", _TYPE_79),
    "Type 279": RadarSet("SC", "metric air warning (1940)", _DEIGHTON),
    "Type 281": RadarSet("SC", "metric air warning (1940-41)", _TYPE_281),
    "Type 291": RadarSet("SC", "metric air warning for destroyers (1942)", _TYPE_291),
    "Type 293": RadarSet("SC", "centimetric air warning (1943)", _TYPE_277),
    "Type 284": RadarSet("SC", "50-cm main-armament gunnery set (1940-41)", _DEIGHTON),
    "Type 271": RadarSet("SG", "10-cm surface warning (1941)", _TYPE_271),
    "Type 272": RadarSet("SG", "10-cm surface warning (1941-42)", _TYPE_277),
    "Type 273": RadarSet("SG", "10-cm surface warning for cruisers and capital ships "
                               "(1941-42)", _TYPE_277),
    "Type 276": RadarSet("SG", "10-cm surface warning for destroyers (1943)", _TYPE_277),
    "Type 277": RadarSet("SG", "10-cm surface warning (1943)", _TYPE_277),
}
"""Named set to category. A gunnery set ranges on ships but searches no wider than an
early set, so it counts as SC (quarterdeck's judgement; no rule text names it)."""


def category(name: str) -> str | None:
    """The category a radar name counts as: itself for SC or SG, a named set's, or None."""
    if name in CATEGORIES:
        return name
    found = RADAR_SETS.get(name)
    return found.category if found else None


def expected() -> str:
    """What a radar ``type`` may be, as an error message says it."""
    return f"expected SC, SG or a named set ({', '.join(RADAR_SETS)})"
