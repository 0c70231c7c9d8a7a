"""biopython-mcp (PyPI, FastMCP 3 on the SDK 1.x): a teaching lab's cloning course, its constructs' reading frames
translated and checked, its isolates' marker regions aligned and turned into trees, and its students' small
structure files read.

Its results are structured content (an ``outputSchema`` of an object of any keys) beside the same object as compact
JSON text: a success flag, the input echoed with its length, a protein with stop codons as ``*`` and its length, a
reverse complement or a transcript with the operation named, a GC percentage rounded to two places with per-base
counts (U counted as 0 in DNA), a motif's 0-based positions and count; a pairwise alignment's score as a float with
the number of co-optimal alignments, the alignment drawn as text (``target 0 ACGT-A 5`` above a ``|||-.|`` line) and
the scoring parameters echoed; an aligned block's matches, mismatches, gaps and identity percentage; a distance
matrix as an object of objects keyed by label; a tree in Newick with branch lengths and named inner nodes, or drawn
as ASCII art; a structure file's models, chains, residues and atoms, or chosen residues with their atom names. The
fixture is a seeded set of twenty-four constructs (an ORF from ATG to a stop, now and then carrying a restriction
site in frame), six families of isolates (one marker region and its point mutants, all of one length), protein
blocks aligned with gaps, and three PDB files written locally (backbone and CB atoms of one or two chains); the
server's NCBI, UniProt, PubMed and PDB tools (online) are never called, nor its placeholder multiple alignment.
"""

from __future__ import annotations

import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import Fixture

QUIET = ("FASTMCP_CHECK_FOR_UPDATES=off", "FASTMCP_SHOW_SERVER_BANNER=false")
STOPS = ("TAA", "TAG", "TGA")
SENSE = tuple(a + b + c for a in "ACGT" for b in "ACGT" for c in "ACGT" if a + b + c not in STOPS)
# restriction sites, each two sense codons in frame
SITES = {"EcoRI": "GAATTC", "BamHI": "GGATCC", "HindIII": "AAGCTT", "PstI": "CTGCAG", "SalI": "GTCGAC",
         "XhoI": "CTCGAG"}  # fmt: skip
GENES = ("gfp", "bla", "lacZa", "kanR", "tetR", "araC", "cat", "mCherry", "luxA", "rfp", "aadA", "cI857")
MOTIFS = ("ATG", "TATAAT", "AGGAGG", "TTGACA", "GC", "CCG", "AAA")
AMINO = "ACDEFGHIKLMNPQRSTVWY"
MATRICES = (
    "BLOSUM62",
    "BLOSUM62",
    "BLOSUM45",
    "BLOSUM50",
    "BLOSUM80",
    "BLOSUM90",
    "PAM30",
    "PAM70",
    "PAM250",
)
RESIDUES = ("ALA", "GLY", "SER", "LEU", "LYS", "ASP", "GLU", "HIS", "CYS", "TYR", "PHE", "ARG", "THR", "VAL")
PLACES = ("Leeds", "Cork", "Oslo", "Porto", "Gent", "Turku", "Bern", "Graz", "Lund", "Brno")


def _orf(rng: random.Random) -> str:
    codons = [rng.choice(SENSE) for _ in range(rng.randrange(18, 70))]
    if rng.random() < 0.5:  # a restriction site in frame
        at = rng.randrange(2, len(codons) - 2)
        site = SITES[rng.choice(sorted(SITES))]
        codons[at : at + 2] = [site[:3], site[3:]]
    return "ATG" + "".join(codons) + rng.choice(STOPS)


def _mutant(rng: random.Random, seq: str, n: int) -> str:
    s = list(seq)
    for i in rng.sample(range(len(s)), n):
        s[i] = rng.choice([b for b in "ACGT" if b != s[i]])
    return "".join(s)


def _pdb(rng: random.Random, path: Path, chains: dict[str, int]) -> None:
    """A small PDB file: per residue N, CA, C, O (and CB but for glycine), fixed columns, an END."""
    lines, serial = [], 1
    for chain, n in chains.items():
        x, y, z = rng.uniform(-20, 20), rng.uniform(-20, 20), rng.uniform(-20, 20)
        for number in range(1, n + 1):
            name = rng.choice(RESIDUES)
            for atom in ("N", "CA", "C", "O") + (() if name == "GLY" else ("CB",)):
                x, y, z = x + rng.uniform(-1.5, 1.5), y + rng.uniform(-1.5, 1.5), z + rng.uniform(-1.5, 1.5)
                lines.append(f"ATOM  {serial:5d}  {atom:<3s} {name} {chain}{number:4d}    {x:8.3f}{y:8.3f}{z:8.3f}"
                             f"  1.00{rng.uniform(5, 60):6.2f}           {atom[0]}")  # fmt: skip
                serial += 1
        lines.append(f"TER   {serial:5d}      {name} {chain}{n:4d}")
        serial += 1
    path.write_text("\n".join([*lines, "END"]) + "\n")


def sequences_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    constructs = [{"name": f"p{rng.choice(GENES)}-{i + 1:02d}", "orf": _orf(rng)} for i in range(24)]
    families = []
    for k in range(6):
        base = "".join(rng.choice("ACGT") for _ in range(rng.randrange(30, 72)))
        labels = rng.sample(PLACES, rng.randrange(4, 8))
        members = [base] + [_mutant(rng, base, rng.randrange(1, 9)) for _ in labels[1:]]
        families.append({"labels": [f"{p}{k + 1}" for p in labels], "members": members})
    blocks = []
    for _ in range(8):
        protein = "".join(rng.choice(AMINO) for _ in range(rng.randrange(12, 40)))
        rows = []
        for _ in range(rng.randrange(2, 5)):
            row = list(protein)
            for i in rng.sample(range(len(row)), rng.randrange(0, 5)):
                row[i] = rng.choice(AMINO + "--")
            rows.append("".join(row))
        blocks.append(rows)
    folder = work / "structures"
    folder.mkdir(parents=True)
    structures = []
    for i in range(3):
        chains = {c: rng.randrange(8, 30) for c in "AB"[: rng.randrange(1, 3)]}
        path = folder / f"model{i + 1}.pdb"
        _pdb(rng, path, chains)
        structures.append({"path": str(path), "chains": chains})
    facts = {"constructs": constructs, "families": families, "blocks": blocks, "structures": structures}
    return Fixture(["env", *QUIET, *binary], facts)


def _newick(rng: random.Random, labels: list[str]) -> str:
    nodes = [f"{label}:{rng.randrange(1, 40) / 100}" for label in labels]
    while len(nodes) > 2:
        i = rng.randrange(len(nodes) - 1)
        nodes[i : i + 2] = [f"({nodes[i]},{nodes[i + 1]}):{rng.randrange(1, 20) / 100}"]
    return f"({nodes[0]},{nodes[1]});"


def sequences_call(rng: random.Random, fx: Fixture) -> Call:
    construct = rng.choice(fx.facts["constructs"])
    orf = construct["orf"]
    r = rng.random()
    if r < 0.16:
        args: dict[str, object] = {"sequence": orf if rng.random() < 0.8 else orf.replace("T", "U")}
        if rng.random() < 0.35:
            args["table"] = rng.choice((1, 2, 4, 11))
        if rng.random() < 0.4:
            args["to_stop"] = rng.random() < 0.6
        return "translate_sequence", args
    if r < 0.26:
        start = rng.randrange(0, len(orf) // 2)
        return "reverse_complement", {
            "sequence": orf[start : start + rng.randrange(12, len(orf) - start + 1)]
        }
    if r < 0.34:
        if rng.random() < 0.3:
            return "transcribe_dna", {"sequence": orf.replace("T", "U"), "reverse": True}
        return "transcribe_dna", {"sequence": orf, **({"reverse": False} if rng.random() < 0.3 else {})}
    if r < 0.46:
        return "calculate_gc_content", {
            "sequence": orf if rng.random() < 0.7 else orf[: rng.randrange(20, len(orf))]
        }
    if r < 0.58:
        motif = rng.choice((*MOTIFS, *SITES.values(), orf[9:15]))
        args = {"sequence": orf, "motif": motif}
        if rng.random() < 0.4:
            args["overlapping"] = rng.random() < 0.5
        return "find_motif", args
    family = rng.choice(fx.facts["families"])
    if r < 0.7:
        i, j = rng.sample(range(len(family["members"])), 2)
        a, b = family["members"][i], family["members"][j]
        if rng.random() < 0.3:  # one short deletion
            k = rng.randrange(5, len(b) - 5)
            b = b[:k] + b[k + rng.randrange(1, 4) :]
        args = {"seq1": a, "seq2": b}
        if rng.random() < 0.4:
            args["mode"] = rng.choice(("global", "local"))
        if rng.random() < 0.3:
            args.update({"match_score": rng.choice((1.0, 2.0, 5.0)), "mismatch_score": rng.choice((-1.0, -3.0, -4.0)),
                         "gap_open": rng.choice((-2.0, -5.0, -10.0)), "gap_extend": rng.choice((-0.5, -1.0))})  # fmt: skip
        return "pairwise_align", args
    if r < 0.78:
        rows = rng.choice(fx.facts["blocks"])
        text = (
            "\n".join(f">{chr(97 + k)}\n{row}" for k, row in enumerate(rows))
            if rng.random() < 0.5
            else "\n".join(rows)
        )
        args = {"alignment_str": text}
        if rng.random() < 0.6:
            args["matrix_name"] = rng.choice(MATRICES)
        return "calculate_alignment_score", args
    n = rng.randrange(3, len(family["members"]) + 1)
    picked = sorted(rng.sample(range(len(family["members"])), n))
    members = [family["members"][k] for k in picked]
    labels = {"labels": [family["labels"][k] for k in picked]} if rng.random() < 0.7 else {}
    if r < 0.85:
        model = {"model": rng.choice(("identity", "blastn", "trans"))} if rng.random() < 0.6 else {}
        return "calculate_distance_matrix", {"sequences": members, **model, **labels}
    if r < 0.92:
        method = {"method": rng.choice(("nj", "upgma"))} if rng.random() < 0.7 else {}
        return "build_phylogenetic_tree", {"sequences": members, **method, **labels}
    if r < 0.95:
        return "draw_tree", {"tree_newick": _newick(rng, [family["labels"][k] for k in picked])}
    structure = rng.choice(fx.facts["structures"])
    if r < 0.975:
        return "calculate_structure_stats", {"pdb_file": structure["path"]}
    chain = rng.choice(sorted(structure["chains"]))
    numbers = sorted(rng.sample(range(1, structure["chains"][chain] + 1), rng.randrange(1, 5)))
    return "find_active_site", {"pdb_file": structure["path"], "residue_numbers": numbers, "chain_id": chain}
