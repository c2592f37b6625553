"""SCORE!'s checks across keys, which its records (game.yaml) name: a step does one thing, with the keys
that thing takes; a step that acts on the target needs a card that takes one."""

WHAT = ["add", "multiply", "set", "take", "protect", "deny", "pass"]
WHO_NEEDED = {"add", "multiply", "set", "protect", "deny"}  # `take` names `from` and `to`, `pass` nobody
PER = {"add", "multiply", "take"}


def step(record, ctx):
    """One ScoreStep: exactly one action, the keys it takes and no others; `who` defaults to `you`."""
    given = [k for k in WHAT if getattr(record, k) not in (None, False)]
    if len(given) != 1:
        ctx.error(record.where, f"a step does exactly one of {', '.join(WHAT)} (this one: "
                                f"{', '.join(given) or 'none'}); write one step per action, "
                                "e.g. - {who: target, add: -2}")
        return
    kind = given[0]
    if kind == "take" and (getattr(record, "from") is None or record.to is None):
        ctx.error(record.where, "a take step names who loses and who gains; write e.g. "
                                "{take: 2, from: target, to: you}")
    if kind != "take" and (getattr(record, "from") is not None or record.to is not None):
        ctx.error(record.where, f"from and to belong to a take step, not to {kind}; use who")
    if record.who is not None and kind not in WHO_NEEDED:
        ctx.error(record.source.at("who"), f"a {kind} step has no who; leave it out")
    if record.per != "once" and kind not in PER:
        ctx.error(record.source.at("per"), f"per repeats add, multiply or take, not {kind}; leave it out")
    if kind in WHO_NEEDED and record.who is None:
        record.who = "you"


def check(deck, ctx):
    """A deck has a mode to play (the table offers its modes; docs/rules/score.md, "Mode options"), and a card whose steps
    act on the target takes one (`target: true`)."""
    if not deck.modes:
        ctx.error(deck.source.at("modes") if "modes" in deck.source else deck.where,
                  "a SCORE! deck needs at least one mode; list the modes it plays under `modes:`, e.g. "
                  "`- {id: classic, name: Classic!, players: {min: 2, max: 6}}`")
    for component in deck.components or []:
        for card in component.cards or []:
            steps = getattr(card, "typed", {}).get("effect") or []
            if card.extra.get("target"):
                continue
            for one in steps:
                if one is not None and "target" in (one.who, getattr(one, "from"), one.to):
                    ctx.error(one.where, f"this step acts on the target, but {card.name!r} takes none; "
                                         "add `target: true` to the card or name someone else")
