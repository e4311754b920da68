"""Profi-Sort: a Rommé set of 2×52 cards plus jokers, and the task sheet as data (rules §1, §4, §6, §11).

Everything the referee needs to know about the tasks is in `TASKS`: each task's
groups at laying (size → kind), whether jokers are allowed, and whether its sets
need different ranks. The kinds (`SET`, `RUN`, …) name both how a group is
checked at laying and how its meld may be extended (§6); the one matcher in
`referee.games.profi_sort.tasks` reads this table and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.event_words import Words, common
from referee.registry import FEWER_WINS, MISTAKE, SCANNING, CardFace, GameDefinition, GameOption, HelpPage, define
from referee.registry import TASKS as TASKS_DONE
from referee.words import N_

SUITS = ("C", "S", "H", "D")
RANK_CODES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_VALUE = {code: i + 2 for i, code in enumerate(RANK_CODES)}  # 2 … 13 (K), ace 14
RANK_LABEL = {value: code for code, value in RANK_VALUE.items()}
ACE = 14
KING = 13
LOWEST = 2
JOKER_FACE = "PS:JOKER"
MAX_JOKERS = 8
DEFAULT_JOKERS = 8
COPIES = 2  # two packs


@dataclass(frozen=True, slots=True)
class Face:
    """What a face means: suit letter ('' for the joker), rank 2…14 (0 for the joker), penalty points."""

    name: str  # the face without the prefix: "H10", "JOKER"
    suit: str
    rank: int
    points: int
    joker: bool
    ace: bool


def _points(rank: int) -> int:
    if rank == ACE:
        return 15
    return 10 if rank > 10 else 5


def faces(jokers: int = DEFAULT_JOKERS) -> tuple[dict[str, int], dict[str, Face]]:
    """The deck: face → copies, and face → meaning."""
    copies: dict[str, int] = {}
    info: dict[str, Face] = {}
    for suit in SUITS:
        for code, rank in RANK_VALUE.items():
            face = f"PS:{suit}{code}"
            copies[face] = COPIES
            info[face] = Face(f"{suit}{code}", suit, rank, _points(rank), False, rank == ACE)
    copies[JOKER_FACE] = jokers
    info[JOKER_FACE] = Face("JOKER", "", 0, 20, True, False)
    return copies, info


# --- group kinds: how a group is checked at laying and how its meld is extended (§5, §6)

SET = "set"  # cards of one rank; extended by that rank (and jokers unless No J)
RUN = "run"  # consecutive ranks, suits free; extended at one end (PS-R17)
SUIT_RUN = "suit-run"  # a run whose natural cards are all of one suit (task 4)
TWOS_THREES = "twos-threes"  # 2s and 3s (task 7)
PICTURES = "pictures"  # J, Q, K (task 8)
ONE_SUIT = "one-suit"  # any ranks, natural cards of one suit (task 14)
FOUR_SUITS = "four-suits"  # exception 1 (task 3)
IDENTICAL_PAIRS = "identical-pairs"  # exception 2 (task 9)
FORMS = "forms"  # exception 3 (task 10)

RUN_KINDS = frozenset({RUN, SUIT_RUN})
# Ranks a meld of these kinds accepts (natural cards).
KIND_RANKS = {
    TWOS_THREES: frozenset({2, 3}),
    PICTURES: frozenset({11, 12, 13}),
}
# Task 10: the two forms (Decision 8).
FORMS_RANKS = {"A": (3, 5, 9, 11), "B": (4, 6, 10, 12)}


@dataclass(frozen=True, slots=True)
class Task:
    number: int
    id: str
    german: str
    groups: tuple[tuple[int, str], ...]  # (size, kind) at laying, in the table's order
    jokers: bool  # "J ok" (True) or "No J" (False)
    requirement: str  # the table's requirement, for messages and documentation
    different_ranks: bool = True  # the task's sets must have different ranks (§5)
    sizes: tuple[int, ...] = field(init=False)  # the group sizes, ascending
    cards: int = field(init=False)  # cards at laying
    kinds: dict[int, str] = field(init=False)  # a group's kind follows from its size (§4)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sizes", tuple(sorted(size for size, _ in self.groups)))
        object.__setattr__(self, "cards", sum(self.sizes))
        object.__setattr__(self, "kinds", dict(self.groups))
        assert all(self.kinds[size] == kind for size, kind in self.groups), "one kind per group size"

    def kind_of(self, size: int) -> str:
        return self.kinds[size]


REPEAT = "repeat-any-and-go-out"

TASKS: tuple[Task, ...] = (
    Task(1, "five-pairs", "5 Zwillinge", ((2, SET),) * 5, False, "five sets of 2, five different ranks"),
    Task(2, "three-triples", "3 Drillinge", ((3, SET),) * 3, True, "three sets of 3, three different ranks"),
    Task(3, "four-of-a-kind-four-suits", "4ling aus 4 Farben", ((4, FOUR_SUITS),), False,
         "one rank, one card of each suit C S H D"),
    Task(4, "run6-one-suit", "6er Folge einer Farbe", ((6, SUIT_RUN),), True,
         "run of 6, all natural cards of one suit"),
    Task(5, "two-pairs-run6", "2 Zwillinge + 6er Folge", ((2, SET), (2, SET), (6, RUN)), True,
         "two sets of 2 (different ranks) and a run of 6, suits free"),
    Task(6, "two-runs5", "2 × 5er Folge", ((5, RUN), (5, RUN)), True, "two runs of 5, suits free"),
    Task(7, "six-twos-threes", "6 2er und 3er", ((6, TWOS_THREES),), True, "six cards, each a 2 or a 3"),
    Task(8, "seven-pictures", "7 Bilder", ((7, PICTURES),), True, "seven picture cards J/Q/K"),
    Task(9, "three-identical-pairs", "3x Karte 2x", ((6, IDENTICAL_PAIRS),), False,
         "three pairs of identical cards, three different faces"),
    Task(10, "3-5-9-j-or-4-6-10-q", "3, 5, 9, B (4, 6, 10, D) aus 4 Farben", ((4, FORMS),), False,
         "one 3, 5, 9, J or one 4, 6, 10, Q, in four different suits"),
    Task(11, "two-four-of-a-kind", "2 4linge", ((4, SET), (4, SET)), True, "two sets of 4, two different ranks"),
    Task(12, "five-of-a-kind-run4", "1 Fünfling + 4er Folge", ((5, SET), (4, RUN)), True,
         "a set of 5 and a run of 4, suits free"),
    Task(13, "run8", "8er Folge", ((8, RUN),), False, "run of 8, suits free"),
    Task(14, "triple-five-one-suit", "1 Drilling + 5 einer Farbe", ((3, SET), (5, ONE_SUIT)), True,
         "a set of 3 and five cards whose natural cards are all of one suit"),
)
TASK_BY_ID: dict[str, Task] = {task.id: task for task in TASKS}
TASK_IDS: tuple[str, ...] = (*(task.id for task in TASKS), REPEAT)  # the 15 tasks of the sheet
ALL_TASKS = len(TASK_IDS)

# --- bonus points (§11; the project's invented default)

NO_JOKER_BONUS = 10
NO_JOKER_TASKS = frozenset(task.id for task in TASKS if task.jokers)  # the nine "J ok" tasks
PAIR_BONUS = 20
BONUS_PAIRS: tuple[tuple[str, str], ...] = tuple((TASKS[i].id, TASKS[i + 1].id) for i in range(0, 14, 2))
BONUS_TOTAL = NO_JOKER_BONUS * len(NO_JOKER_TASKS) + PAIR_BONUS * len(BONUS_PAIRS)  # 230
PAIR_OF: dict[str, tuple[str, str]] = {t: pair for pair in BONUS_PAIRS for t in pair}

assert BONUS_TOTAL == 230


# --- the game's definition: everything about it that is not its rules (referee.registry)

TASK_NUMBERS = {task_id: str(number) for number, task_id in enumerate(TASK_IDS, start=1)}  # as the sheet shows
# Each task as the sheet names it (the German msgstr is the printed sheet's own words, `Task.german`).
TASK_NAMES = {
    "five-pairs": N_("5 pairs"), "three-triples": N_("3 triples"),
    "four-of-a-kind-four-suits": N_("4 of a kind in 4 suits"), "run6-one-suit": N_("run of 6 in one suit"),
    "two-pairs-run6": N_("2 pairs + run of 6"), "two-runs5": N_("2 runs of 5"),
    "six-twos-threes": N_("6 twos and threes"), "seven-pictures": N_("7 picture cards"),
    "three-identical-pairs": N_("3 identical pairs"),
    "3-5-9-j-or-4-6-10-q": N_("3, 5, 9, J (4, 6, 10, Q) in 4 suits"), "two-four-of-a-kind": N_("2 fours of a kind"),
    "five-of-a-kind-run4": N_("5 of a kind + run of 4"), "run8": N_("run of 8"),
    "triple-five-one-suit": N_("triple + 5 of one suit"), REPEAT: N_("any task again, then go out"),
}
SUIT_NAMES = {"C": N_("Clubs"), "S": N_("Spades"), "H": N_("Hearts"), "D": N_("Diamonds")}
PICTURE_NAMES = {"J": N_("Jack"), "Q": N_("Queen"), "K": N_("King"), "A": N_("Ace")}
# A picture rank's letter on the card, as the language prints it (German: B, D, K, A).
PICTURE_LETTERS = {"J": N_("J"), "Q": N_("Q"), "K": N_("K"), "A": N_("A")}
SUIT_SYMBOLS = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
RED_SUITS = frozenset("HD")


def card_words(short: str, say: Callable[[str], str]) -> str:
    """`H10` → "Herz 10", `SQ` → "Pik Dame", `JOKER` → "Joker"."""
    if short == "JOKER":
        return say(N_("Joker"))
    suit, rank = short[:1], short[1:]
    if suit not in SUIT_NAMES or rank not in RANK_VALUE:
        raise ValueError(f"PS face {short!r}")
    return f"{say(SUIT_NAMES[suit])} {say(PICTURE_NAMES[rank]) if rank in PICTURE_NAMES else rank}"



def card_face(short: str, say: Callable[[str], str]) -> CardFace:
    """The rank with its suit's sign, red for hearts and diamonds, black for clubs and spades; the Joker's star."""
    card_words(short, say)  # a face that is not in the deck raises here
    if short == "JOKER":
        return CardFace(symbol="joker", small=say(N_("Joker")), ink="red")
    suit, rank = short[:1], short[1:]
    return CardFace(value=say(PICTURE_LETTERS[rank]) if rank in PICTURE_LETTERS else rank,
                    symbol=SUIT_SYMBOLS[suit], ink="red" if suit in RED_SUITS else "black")


def _task(task_id: object, w: Words) -> str:
    task = TASK_BY_ID.get(str(task_id))
    if task is not None:
        return w.tr("task {n} ({name})", n=task.number, name=w.tr(TASK_NAMES[task.id]))
    number = TASK_NUMBERS.get(str(task_id))  # task 15 repeats another: it has no shape of its own
    return w.tr("task {n}", n=number) if number else str(task_id)


def _lay_task(e: Mapping[str, Any], p: str, w: Words) -> str:
    groups = e.get("groups")
    if not isinstance(groups, list):
        groups = []
    shown = " | ".join(", ".join(w.card(c) for c in g) for g in groups if isinstance(g, list))
    text = w.tr("{player} lays {task}: {cards}", player=p, task=_task(e.get("task"), w), cards=shown)
    if "as" in e:
        text += " " + w.tr("(as {task})", task=_task(e["as"], w))
    return text


def _reveal_hand(e: Mapping[str, Any], p: str, w: Words) -> str:
    if not e.get("cards"):
        return w.tr("{player} shows an empty hand", player=p)
    return w.tr("{player} shows the hand: {cards}", player=p, cards=w.cards(e))


EVENTS = common("draw", "discard", "new_round") | {
    "lay_task": _lay_task,
    "reveal_hand": _reveal_hand,
    "skip_with_ace": lambda e, p, w: w.tr("{player} skips the turn with a received ace", player=p),
    "give_ace": lambda e, p, w: w.tr("{player} gives {card} to {to}", player=p, card=w.cards(e), to=e["to"]),
    "extend": lambda e, p, w: w.tr("{player} adds {cards} to meld {meld}", player=p, cards=w.cards(e),
                                   meld=e.get("meld", "")),
    "redeal": lambda e, p, w: w.tr("{player} shows {cards}: the round is dealt again", player=p, cards=w.cards(e)),
}


def score_kind(options: Mapping[str, Any]) -> str:
    """Penalty points (fewer wins); the beginner game (`first_to`) counts the tasks done."""
    return TASKS_DONE if options.get("first_to") else FEWER_WINS


HELP = (
    HelpPage(N_("Goal and your turn"), (
        N_("Goal: lay the tasks and keep few penalty points. Lowest total at the end of the match wins."),
        N_("Start your turn: press your seat button (or touch Draw) and draw from the talon."),
        N_("Then lay a task or extend melds as you like (touch the button, scan the cards, touch Done)."),
        N_("End your turn by discarding one card: scan it."),
    )),
    HelpPage(N_("Tasks and aces"), (
        N_("The task sheet on the screen shows which tasks you still need. Each task counts once per match."),
        N_("Give one ace per round to another player: they may skip a turn with it instead of drawing."),
        N_("A round ends when someone discards their last card or the talon is empty."),
    )),
    HelpPage(N_("Round end, buttons, mistakes"), (
        N_("At the round end each player touches “Show hand” and scans the cards left in hand."),
        N_("Seat button: draw at the start of your turn, or Done while laying."),
        SCANNING, MISTAKE,
    )),
)

# The codes the rules' sentences name beside cards, in the words a guest reads (`referee.event_words`): suits and
# picture ranks as the labels print them, a task by its number on the task sheet, an event by its button, a phase
# by what is going on at the table.
EVENT_NAMES = {
    "draw": N_("Draw"), "skip_with_ace": N_("Skip with ace"), "give_ace": N_("Give an ace"),
    "lay_task": N_("Lay a task"), "extend": N_("Extend"), "discard": N_("Discard"), "redeal": N_("Redeal (3 aces)"),
    "reveal_hand": N_("Show hand"), "new_round": N_("Next round"),
}
PHASE_NAMES = {"play": N_("the round is being played"), "scoring": N_("the hands are being shown"),
               "round-over": N_("the round is over"), "over": N_("the game is over")}
VALUE_WORDS = {
    "suit": SUIT_NAMES, "other_suit": SUIT_NAMES, "rank": PICTURE_NAMES, "other_rank": PICTURE_NAMES,
    "task": TASK_NUMBERS, "event": EVENT_NAMES, "phase": PHASE_NAMES, "side": {"low": N_("low"), "high": N_("high")},
}

STATE_WORDS = {
    "ace_given": N_("ace given"), "bonus_open": N_("open bonus points"), "dealer": N_("dealer"),
    "discard_top": N_("discard pile"), "melds": N_("melds"), "phase": N_("phase"), "received": N_("aces received"),
    "round": N_("round"), "round_points": N_("round points"), "talon": N_("talon"), "tasks_done": N_("tasks done"),
    "went_out": N_("went out"), "task": N_("task"),
}

# The header's options a table sets at the set-up (§20), with the defaults the rules play when they are left out.
OPTIONS = (
    GameOption("first_to", N_("Length"), ((N_("full match"), None), (N_("to 2 tasks"), 2), (N_("to 5 tasks"), 5),
                                          (N_("to 10 tasks"), 10)), default=None),
    GameOption("discard_draw", N_("Take the discard"), ((N_("no"), False), (N_("yes"), True)), default=False),
    GameOption("jokers", N_("Jokers"), (("8", 8), ("6", 6)), default=DEFAULT_JOKERS),
    GameOption("bonus", N_("Bonus points"), ((N_("on"), True), (N_("off"), False)), default=True),
)

DEFINITION = define(GameDefinition(
    game_id="profi-sort", order=2, prefix="PS", rules="profi-sort.md", card_words=card_words,
    events=EVENTS, score=score_kind, help=HELP, value_words=VALUE_WORDS, options=OPTIONS,
    card_face=card_face, state_words=STATE_WORDS,
))
