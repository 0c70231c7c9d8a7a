"""mcp-server-ancestry (PyPI, the SDK 1.x's low-level Server): a family historian's GEDCOM trees, one file per
family line in one folder, listed and read by name or by a shell pattern.

Its results are bare text blocks, one per file matched, and no structured content: a listing's block per file (``File:
okoye-lagos.ged``, its size in bytes, a ``gedcom://`` URI), or a file's records as indented JSON under the file's
name, each record keyed by its GEDCOM id (``@I12@``, ``@F3@``, ``@U1@``) with its type, names and name parts,
sex, links to families and spouses and children as ids (a repeated link keeps its last), events (birth,
christening, marriage, residence, occupation, death, burial) as objects of GEDCOM dates (``12 MAR 1890``, ``ABT
1850``, ``BET 1870 AND 1875``) and places, notes as text. The fixture writes a seeded folder of family files (three
or four generations each, ASCII names, no blank line: the server's parser reads every line's level) and runs the
server from a folder of its own, where it writes its log; its rename tool is never called (a rename would change
the folder under the calls that follow).
"""

from __future__ import annotations

import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import FIRST, LAST, Fixture

GIVEN = {
    "M": ("John", "William", "Thomas", "George", "Samuel", "Joseph", "Henry", "Arthur", "Albert", "Walter", "Chidi",
          "Emeka", "Kenji", "Hiroshi", "Pavel", "Ivan", "Luca", "Marco", "Tomas", "Jozef"),
    "F": ("Mary", "Elizabeth", "Sarah", "Ann", "Margaret", "Alice", "Florence", "Edith", "Ada", "Nell", "Ngozi",
          "Adaeze", "Yuki", "Hana", "Olga", "Irina", "Giulia", "Rosa", "Maria", "Anna"),
}  # fmt: skip
PLACES = ("Leeds, Yorkshire, England", "Halifax, Yorkshire, England", "Lagos, Nigeria", "Enugu, Nigeria",
          "Osaka, Japan", "Kyoto, Japan", "Brno, Moravia", "Vienna, Austria", "Genoa, Liguria, Italy",
          "Cusco, Peru", "Lima, Peru", "Budapest, Hungary", "Toronto, Ontario, Canada", "New York, USA")  # fmt: skip
JOBS = (
    "Weaver",
    "Coal miner",
    "Schoolteacher",
    "Clerk",
    "Blacksmith",
    "Nurse",
    "Farmer",
    "Tailor",
    "Railway porter",
)
MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")


def _date(rng: random.Random, year: int) -> str:
    """A GEDCOM date as registers give them: exact, a year, about, before or between."""
    r = rng.random()
    if r < 0.55:
        return f"{rng.randrange(1, 29)} {rng.choice(MONTHS)} {year}"
    if r < 0.7:
        return str(year)
    if r < 0.82:
        return f"ABT {year}"
    if r < 0.9:
        return f"BEF {year + 1}"
    return f"BET {year - 2} AND {year + 2}"


class _Tree:
    """One family line's records, written as GEDCOM 5.5.1 lines."""

    def __init__(self, rng: random.Random, surname: str, home: str) -> None:
        self.rng, self.surname, self.home = rng, surname, home
        self.people: list[list[str]] = []
        self.families: list[list[str]] = []

    def person(self, sex: str, born: int, surname: str, famc: int | None) -> int:
        rng, n = self.rng, len(self.people) + 1
        given = rng.choice(GIVEN[sex])
        lines = [f"0 @I{n}@ INDI", f"1 NAME {given} /{surname}/", f"2 GIVN {given}", f"2 SURN {surname}",
                 f"1 SEX {sex}", "1 BIRT", f"2 DATE {_date(rng, born)}", f"2 PLAC {self.place()}"]  # fmt: skip
        if rng.random() < 0.4:
            lines += ["1 CHR", f"2 DATE {_date(rng, born)}", f"2 PLAC {self.place()}"]
        if rng.random() < 0.5:
            lines += [f"1 OCCU {rng.choice(JOBS)}", f"2 DATE {born + rng.randrange(18, 40)}"]
        if rng.random() < 0.35:
            lines += [
                "1 RESI",
                f"2 DATE {_date(rng, born + rng.randrange(20, 50))}",
                f"2 PLAC {self.place()}",
            ]
        if born < 1935 and rng.random() < 0.8:
            died = born + rng.randrange(30, 92)
            lines += ["1 DEAT", f"2 DATE {_date(rng, died)}", f"2 PLAC {self.place()}"]
            if rng.random() < 0.5:
                lines += ["1 BURI", f"2 DATE {_date(rng, died)}", f"2 PLAC {self.place()}"]
        if rng.random() < 0.2:
            year, others = rng.choice(("1881", "1901", "1921")), rng.randrange(2, 9)
            lines.append(f"1 NOTE Named in the {year} census with {others} others in the household")
        if famc is not None:
            lines.append(f"1 FAMC @F{famc}@")
        self.people.append(lines)
        return n

    def place(self) -> str:
        return self.home if self.rng.random() < 0.6 else self.rng.choice(PLACES)

    def family(self, husband: int, wife: int, year: int) -> int:
        n = len(self.families) + 1
        lines = [f"0 @F{n}@ FAM", f"1 HUSB @I{husband}@", f"1 WIFE @I{wife}@", "1 MARR",
                 f"2 DATE {_date(self.rng, year)}", f"2 PLAC {self.place()}"]  # fmt: skip
        for who in (husband, wife):
            self.people[who - 1].append(f"1 FAMS @F{n}@")
        self.families.append(lines)
        return n

    def grow(self, husband: int, born: int, generations: int) -> None:
        """A couple, their children, and the eldest son's or a daughter's line onwards."""
        rng = self.rng
        wife = self.person("F", born + rng.randrange(-4, 5), rng.choice(LAST + (self.surname,)), None)
        fam = self.family(husband, wife, born + rng.randrange(20, 32))
        children = [self.person(rng.choice("MF"), born + 22 + 2 * k + rng.randrange(3), self.surname, fam)
                    for k in range(rng.randrange(1, 5))]  # fmt: skip
        for child in children:
            self.families[fam - 1].append(f"1 CHIL @I{child}@")
        sons = [c for c in children if self.people[c - 1][4] == "1 SEX M"]
        if generations > 1 and sons:
            self.grow(sons[0], born + 24, generations - 1)

    def text(self, submitter: str) -> str:
        head = ["0 HEAD", "1 SOUR FamilyNotes", "2 VERS 4.2", "1 GEDC", "2 VERS 5.5.1", "2 FORM LINEAGE-LINKED",
                "1 CHAR UTF-8", "1 SUBM @U1@", "0 @U1@ SUBM", f"1 NAME {submitter}"]  # fmt: skip
        body = [line for record in self.people + self.families for line in record]
        return "\n".join([*head, *body, "0 TRLR"]) + "\n"


def pedigrees_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    folder, run = work / "trees", work / "run"
    folder.mkdir(parents=True)
    run.mkdir()  # the server writes mcp_ancestry.log where it runs
    files = []
    lines = rng.sample([(s, p) for s in LAST for p in PLACES], 24)  # a surname's lines in several places
    for surname, home in sorted(lines):
        tree = _Tree(rng, surname, home)
        born = rng.randrange(1820, 1870)
        tree.grow(tree.person("M", born, surname, None), born, rng.randrange(2, 4))
        stem = f"{surname.lower()}-{home.split(',')[0].lower().replace(' ', '-')}"
        (folder / f"{stem}.ged").write_text(tree.text(f"{rng.choice(FIRST)} {surname}"))
        files.append(stem)
    return Fixture(["env", "-C", str(run), *binary, "--gedcom-path", str(folder)], {"files": files})


def _pattern(rng: random.Random, files: list[str]) -> str:
    """A name the historian types: a file's stem (now and then with .ged, or a letter left to ?), or a shell
    pattern that matches some: a prefix, a place, a letter range, a part of a name."""
    stem = rng.choice(files)
    r = rng.random()
    if r < 0.3:
        return stem + (".ged" if rng.random() < 0.2 else "")
    if r < 0.45:
        i = rng.randrange(len(stem))
        return stem[:i] + "?" + stem[i + 1 :]
    if r < 0.6:
        return stem[: rng.randrange(1, 5)] + "*"
    if r < 0.75:
        return "*" + stem.split("-", 1)[1]
    if r < 0.85:
        return f"[{stem[0]}-{rng.choice('mnprstuvwz')}]*" if stem[0] < "m" else f"[a-{stem[0]}]*"
    if r < 0.97:
        i = rng.randrange(len(stem) - 2)
        return "*" + stem[i : i + rng.randrange(2, 4)] + "*"
    return "*"


def pedigrees_call(rng: random.Random, fx: Fixture) -> Call:
    name = _pattern(rng, fx.facts["files"])
    return ("list_files" if rng.random() < 0.3 else "view_file"), {"name": name}
