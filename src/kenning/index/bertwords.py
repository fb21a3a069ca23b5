"""The bundled model's text reading before WordPiece, in one place: BERT's uncased normaliser
and pre-tokeniser, as `tokenizers` runs them for the model (issues 17 and 18).

The index (`index.wordpiece`) and the prompt hook (`hooks.promptvec`) both read texts here,
so a prompt and the facts it is compared with are split the same way. The normaliser drops
NUL, U+FFFD and control/format characters, turns whitespace into a space, spaces CJK
ideographs, decomposes (NFD) and drops non-spacing marks, then lower-cases a character at a
time; the pre-tokeniser splits at whitespace and puts each punctuation character alone.

A character whose Unicode properties may differ between Python's tables and the older ones
`tokenizers` was built with is *unsure*: a strict reading gives up (`words` returns None and
the index asks `tokenizers`); the hook, which must not import it, reads it by Python's tables.

Stdlib only, and none of `re`, `typing` or `json` (the prompt hook's import budget);
`unicodedata` is imported for the first text that is not printable ASCII.
"""

from __future__ import annotations

ASCII_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_BLANKS = str.maketrans("\t\n\r", "   ")
_REMOVED = ""
_FORMS: dict[str, tuple[str, bool]] = {}  # a non-ASCII character: (its normal form, sure)


def words(text: str, strict: bool) -> list[str] | None:
    """`text` normalised and pre-tokenised; None when `strict` and a character is unsure."""
    if text.isascii() and text.translate(_BLANKS).isprintable():
        normal = text.lower()
    else:
        normal = normalised(text, strict)
        if normal is None:
            return None
    out: list[str] = []
    for word in normal.split():
        if word.isalnum():
            out.append(word)
            continue
        start = 0
        for at, char in enumerate(word):
            if char in ASCII_PUNCT or (not char.isascii() and _is_punctuation(char)):
                if at > start:
                    out.append(word[start:at])
                out.append(char)
                start = at + 1
        if start < len(word):
            out.append(word[start:])
    return out


def normalised(text: str, strict: bool) -> str | None:
    """The BERT normaliser's output; None when `strict` and a character is unsure."""
    import unicodedata

    cleaned = []
    for char in text:
        if char.isascii():
            # ASCII controls other than tab and newlines are dropped, those to a space.
            cleaned.append(char if char >= " " and char != "\x7f" else
                           " " if char in "\t\n\r" else "")
            continue
        known = _FORMS.get(char)
        if known is None:
            known = _FORMS[char] = _form(char, unicodedata)
        form, sure = known
        if strict and not sure:
            return None
        cleaned.append(form)
    decomposed = unicodedata.normalize("NFD", "".join(cleaned))
    return "".join(c.lower() for c in decomposed if unicodedata.category(c) != "Mn")


def _form(char: str, unicodedata: object) -> tuple[str, bool]:
    """What the normaliser's cleaning and CJK spacing make of one non-ASCII character, and
    whether `tokenizers` surely does the same: not for a character unassigned in Python's
    tables, nor for one whose category changed since Unicode 3.2 (an unassigned character
    there is dropped, here it would be kept), except a symbol new since then (most emoji),
    which both keep."""
    category = unicodedata.category(char)  # type: ignore[attr-defined]
    then = unicodedata.ucd_3_2_0.category(char)  # type: ignore[attr-defined]
    sure = not (category == "Cn"
                or (then != category and not (then == "Cn" and category[0] == "S")))
    if char == "\ufffd" or category in ("Cc", "Cf", "Co", "Cs"):
        return _REMOVED, sure
    if category in ("Zs", "Zl", "Zp"):
        return " ", sure
    if is_cjk(ord(char)):
        return f" {char} ", sure
    return char, sure


def _is_punctuation(char: str) -> bool:
    import unicodedata

    return unicodedata.category(char).startswith("P")


def is_cjk(code: int) -> bool:
    """CJK ideographs, as the normaliser of `tokenizers` spaces them (checked on every code
    point; the extension blocks past Unicode 3.2 are unsure characters for a strict reading)."""
    return (0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0xF900 <= code <= 0xFAFF
            or 0x20000 <= code <= 0x2A6DF or 0x2A700 <= code <= 0x2B81F
            or 0x2B920 <= code <= 0x2CEAF or 0x2F800 <= code <= 0x2FA1F)
