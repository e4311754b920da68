"""The referee's verdicts: an event the rules refuse (`Rejection`), a header that is not valid (`HeaderError`),
and the answer to one event (`Answer`). Codes and values only: the sentences come from the catalogues
(`referee.messages`) when someone asks for them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee import messages
from referee.errors import RefereeError


class Rejection(RefereeError):
    """An event the rules do not allow: a stable code, and a sentence made on demand.

    `key` selects the sentence (defaults to the code); `params` fill it in.
    """

    def __init__(self, code: str, key: str | None = None, **params: Any):
        super().__init__(code)
        self.code = code
        self.key = key or code
        self.params = params

    def message(self, lang: str = "en", rules: bool = True) -> str:
        """The sentence in `lang`; `rules=False` leaves out the rule references (a guest's screen)."""
        return messages.render(self.key, self.params, lang, rules)

    def detail(self) -> str:
        """The rule references and the code, for staff: "AO-R5 · no-match"."""
        refs = messages.rules_of(self.key)
        return f"{', '.join(refs)} · {self.code}" if refs else self.code

    def __str__(self) -> str:
        return f"{self.code}: {self.message()}"

    def __repr__(self) -> str:
        return f"Rejection({self.code!r}, key={self.key!r}, **{self.params!r})"


class HeaderError(RefereeError):
    """The transcript header is not valid (`bad-header`); nothing else is read.

    Like a `Rejection`, it carries a code and values, no words: `what` names the sentence
    (`bad-header.<what>` in the `reasons` catalogue), `params` fill it in. A tuple of numbers among the
    values (the player counts a game allows) reads as "2 or 4" / "2 oder 4".
    """

    code = "bad-header"

    def __init__(self, what: str, **params: Any):
        super().__init__(f"bad-header.{what}")
        self.key = f"bad-header.{what}"
        self.params = params

    def reason(self, lang: str = "en") -> str:
        """Why the header is not valid, in `lang` (the part after "The header is not valid: ")."""
        either = messages.render("bad-header.or", {}, lang)
        params = {name: either.join(str(v) for v in value) if isinstance(value, tuple) else value
                  for name, value in self.params.items()}
        return messages.render(self.key, params, lang)

    def message(self, lang: str = "en", rules: bool = True) -> str:
        """The sentence in `lang`; `rules` as a `Rejection`'s (a header's sentence names no rules either way)."""
        return messages.render("bad-header", {"reason": self.reason(lang)}, lang)

    def __str__(self) -> str:
        return f"{self.code}: {self.message()}"

    def __repr__(self) -> str:
        return f"HeaderError({self.key!r}, **{self.params!r})"


@dataclass(frozen=True, slots=True)
class Answer:
    """The referee's verdict on one event."""

    ok: bool
    rejection: Rejection | HeaderError | None = field(default=None)

    @property
    def error(self) -> str | None:
        return None if self.rejection is None else self.rejection.code

    def message(self, lang: str = "en", rules: bool = True) -> str | None:
        return None if self.rejection is None else self.rejection.message(lang, rules)


ACCEPTED = Answer(True)
