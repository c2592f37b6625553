"""Skorch's check across keys, which its records (game.yaml) name: the prison's rows are as long as each other."""


def same_length(prison, ctx):
    """A SkorchPrison's back and front rows hold as many cards."""
    if prison.back is not None and prison.front is not None and len(prison.back) != len(prison.front):
        ctx.error(prison.source.at("front"), f"the front row has {len(prison.front)} cards and the back row "
                                             f"{len(prison.back)}; give both rows as many")
